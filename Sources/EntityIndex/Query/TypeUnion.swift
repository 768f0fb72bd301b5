import JSON
import SQLite

/// The entity types one request covers: none given means every type, several mean their union.
///
/// `search --type order --type product` (pipe: `"type": ["order", "product"]`) answers both types in one ranking,
/// one page or one order, as if the index held only them.
public enum TypeUnion {
    /// The types in the order given, each once.
    public static func normalized(_ types: [String]) -> [String] {
        var seen = Set<String>()
        return types.filter { seen.insert($0).inserted }
    }

    /// `column = ?` for one type, `column IN (?, …)` for several; nil for none (every type).
    static func condition(_ column: String, _ types: [String]) -> SQLFragment? {
        switch types.count {
        case 0: return nil
        case 1: return SQLFragment(sql: "\(column) = ?", arguments: [.text(types[0])])
        default:
            let marks = Array(repeating: "?", count: types.count).joined(separator: ", ")
            return SQLFragment(sql: "\(column) IN (\(marks))", arguments: types.map { .text($0) })
        }
    }

    /// How messages name the types: `order`, or `order, product` (a long union cut as `Quoting.names` cuts it).
    static func describe(_ types: [String]) -> String { Quoting.names(types) }
}
