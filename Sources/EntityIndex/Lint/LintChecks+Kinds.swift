/// The check of `lint` on the kinds of property values.
extension LintChecks {
    /// `mixed-kinds`: an undeclared property of a type holds values of more than one kind (numbers in most
    /// entities, `"12,50"` in one). A property query compares each filter with the values of its own kind and sorts
    /// numbers before strings, so the odd values drop out of numeric filters and sort after: the finding names the
    /// entities holding the kinds fewer entities hold, so that they can be fixed, or the property declared.
    ///
    /// One pass: per type and property, the entities holding each kind.
    mutating func mixedKinds() {
        struct Property: Hashable { var type: String, name: String }
        var holders: [Property: [String: [Int]]] = [:]
        var order: [Property] = []
        for (i, s) in subjects.enumerated() {
            for (name, kinds) in s.propertyKinds where !kinds.isEmpty {
                let property = Property(type: s.key.type, name: name)
                guard declarations[property.type]?[name] == nil else { continue }
                if holders[property] == nil { order.append(property) }
                for kind in kinds { holders[property, default: [:]][kind, default: []].append(i) }
            }
        }
        for property in order {
            let byKind = holders[property]!
            guard byKind.count > 1 else { continue }
            // The commonest kind first (ties by name); the others are the odd ones.
            let kinds = byKind.keys.sorted { (byKind[$0]!.count, $1) > (byKind[$1]!.count, $0) }
            let involved = byKind.values.joined()
            guard wholeIndex || involved.contains(where: { subjects[$0].fromInput }) else { continue }
            let counts = kinds.map { "\(Self.number(byKind[$0]!.count)) \(Self.plural($0, byKind[$0]!.count))" }
            let main = kinds[0]
            for kind in kinds.dropFirst() {
                let message = """
                    holds a \(kind) in property "\(property.name)", whose values among \(property.type) \
                    entities are \(counts.joined(separator: ", ")): a filter compares the values of its own kind and a \
                    sort puts numbers before strings, so this value drops out of \(main) filters and sorts apart; push \
                    it as a \(main), or declare the property (entityidx declare --type \
                    \(property.type) \(property.name):\(main)) to refuse other kinds
                    """
                for i in byKind[kind]! {
                    add(.mixedKinds, subjects[i], message, field: "properties.\(property.name)")
                }
            }
        }
    }

    static func plural(_ kind: String, _ n: Int) -> String {
        n == 1 ? kind : kind + "s"
    }

}
