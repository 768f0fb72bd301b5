import Foundation
import TestSupport
import Testing

@testable import EntityIndexCLI

/// The help of every command, the completion scripts and the man page, against checked-in copies.
///
/// After changing a command's help on purpose, `make golden` rewrites them (review the diff).
@Suite struct GoldenTests {
    static let directory = TestSupport.repository + "/Tests/Golden"
    static let updating = ProcessInfo.processInfo.environment["ENTITYIDX_UPDATE_GOLDEN"] == "1"

    func check(_ text: String, against path: String) {
        if Self.updating { TestSupport.write(path, text) }
        let golden = TestSupport.read(path)
        #expect(golden != nil, "missing golden file \(path): run make golden")
        #expect(golden == text, "\(path) differs from the generated text: run make golden and review the diff")
    }

    static var commandNames: [String] { EntityIdx.commands.map { $0.spec.name } }

    @Test(arguments: commandNames) func commandHelp(_ name: String) throws {
        let spec = try #require(EntityIdx.command(named: name)?.spec)
        check(spec.help, against: "\(Self.directory)/help/\(name).txt")
    }

    @Test func topLevelHelp() {
        check(EntityIdx.usage, against: "\(Self.directory)/help/entityidx.txt")
    }

    @Test(arguments: Completions.Shell.allCases) func completions(_ shell: Completions.Shell) throws {
        let script = Completions.script(shell)
        check(script, against: "\(Self.directory)/completions/entityidx.\(shell.rawValue)")
        for name in Self.commandNames { #expect(script.contains(name), "\(shell) completes \(name)") }
        // The shell itself must accept the script, when it is installed.
        let path = "/usr/bin/\(shell.rawValue)"
        guard FileManager.default.isExecutableFile(atPath: path) else { return }
        let file = TestSupport.temporaryDirectory() + "/completion.\(shell.rawValue)"
        TestSupport.write(file, script)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-n", file]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(shell) -n rejects the script")
    }

    /// The checked-in man page is the one generated from the help (`make man`).
    @Test func manPage() {
        check(Manual.page, against: TestSupport.repository + "/man/entityidx.1")
        for name in Self.commandNames { #expect(Manual.page.contains(".SS \(name)\n")) }
    }

    @Test func everyOptionOfEveryCommandIsInItsHelpAndTheManPage() {
        for spec in EntityIdx.commands.map({ $0.spec }) {
            for (name, _) in spec.options {
                let option = name.hasSuffix("=") ? String(name.dropLast()) : name
                #expect(spec.help.contains("--\(option)"), "\(spec.name) --\(option)")
                #expect(Manual.page.contains("\\-\\-" + Manual.roff(option)), "man page: \(spec.name) --\(option)")
            }
        }
    }
}
