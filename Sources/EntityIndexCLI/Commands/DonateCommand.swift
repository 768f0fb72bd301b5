import EntityIndex
import EntityIndexPipe

/// `entityidx donate --type T ID`: an interaction, like an intent donation.
struct DonateCommand: Command {
    static let spec = CommandSpec(
        name: "donate", abstract: "Record an interaction with an entity (feeds suggestions)",
        usage: "entityidx donate --type T ID [--json]",
        options: [("type=", "the entity's type (required)")],
        discussion: "Donations of one entity within 5 minutes of the previous one count once.",
        literalExample: "donate --type order -- -17")

    var request: DonateRequest

    var writes: Bool { true }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard let type = arguments.value("type") else { throw UsageError("missing --type", usage: Self.spec.usage) }
        guard arguments.positionals.count == 1 else { throw UsageError("donate takes one ID", usage: Self.spec.usage) }
        request = DonateRequest(type: type, id: arguments.positionals[0])
    }

    func run(_ context: CommandContext) throws -> Int32 {
        try context.run(request) { counted in
            context.print(counted ? "donated" : "not counted (within 5 minutes of the previous donation)")
        }
        return 0
    }
}
