import Foundation
import TestSupport
import Testing

/// The completion scripts in the real shells, driven without a terminal: bash through `COMP_WORDS` and the
/// function, zsh on a pseudo-terminal (`zpty`) with `compadd` captured, fish through `complete -C`. `make test`
/// installs zsh and fish when they are missing.
@Suite(.serialized) struct ShellCompletionTests {
    let now = "2026-11-29T12:00:00Z"

    /// A folder with the sample index, two record files and a subfolder to run from.
    func fixture() throws -> String {
        let dir = TestSupport.temporaryDirectory()
        try Binary.ingestSamples(into: dir + "/shop.sqlite", now: now)
        TestSupport.write(dir + "/records.ndjson", "")
        TestSupport.write(dir + "/restore.ndjson", "")
        try FileManager.default.createDirectory(atPath: dir + "/cwd", withIntermediateDirectories: true)
        return dir
    }

    static func shell(_ name: String) -> String? {
        for dir in ["/usr/bin", "/bin", "/usr/local/bin"]
        where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
            return "\(dir)/\(name)"
        }
        Issue.record("\(name) is not installed (make test installs it)")
        return nil
    }

    /// Runs `program` with `shell`, the binary's folder first on PATH, in `directory`; its standard output's lines.
    func lines(_ shell: String, _ arguments: [String], in directory: String, environment: [String: String] = [:])
        throws -> [String]
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "ENTITYIDX_DB")
        env["PATH"] = (Binary.path as NSString).deletingLastPathComponent + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["HOME"] = directory
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: out, as: UTF8.self).split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
            .sorted()
    }

    func script(_ shell: String, into dir: String) throws -> String {
        let path = dir + (shell == "zsh" ? "/zsh/_entityidx" : "/entityidx.\(shell)")
        if shell == "zsh" {
            try FileManager.default.createDirectory(atPath: dir + "/zsh", withIntermediateDirectories: true)
        }
        TestSupport.write(path, try Binary.run(["completions", shell]).stdout)
        return path
    }

    /// What each shell completes for `line` (the last word being typed).
    func complete(_ line: String, in dir: String, environment: [String: String] = [:]) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        if let bash = Self.shell("bash") {
            var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            if words.count == 1 { words.append("") }
            let program = """
                source '\(try script("bash", into: dir))'
                COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " "))); COMP_CWORD=\(words.count - 1)
                _entityidx
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            result["bash"] = try lines(bash, ["--norc", "-c", program], in: dir + "/cwd", environment: environment)
                .filter { !$0.isEmpty }
        }
        if let zsh = Self.shell("zsh") {
            _ = try script("zsh", into: dir)
            TestSupport.write(dir + "/init.zsh", Self.zshInit)
            TestSupport.write(dir + "/capture.zsh", Self.zshCapture)
            result["zsh"] = try lines(
                zsh, ["-f", dir + "/capture.zsh", dir + "/zsh", dir + "/init.zsh", line], in: dir + "/cwd",
                environment: environment)
        }
        if let fish = Self.shell("fish") {
            let source = try script("fish", into: dir)
            result["fish"] = try lines(
                fish, ["--no-config", "-c", "source '\(source)'; complete -C '\(line)'"], in: dir + "/cwd",
                environment: environment)
        }
        return result
    }

    /// The inner interactive zsh: compinit, and a `compadd` that prints each match it adds.
    static let zshInit = #"""
        PS1=''
        autoload -U compinit; compinit -u -D
        zstyle ':completion:*' list-grouped false
        zstyle ':completion:*' insert-tab false
        compadd () {
          if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi
          typeset -a __hits
          builtin compadd -A __hits "$@"
          local r=$? h
          for h in $__hits; do print -r -- "<<$h>>"; done
          return r
        }
        _capture_end() { print -r -- '<<END>>' }
        comppostfuncs=(_capture_end)
        bindkey '^I' complete-word
        """#

    /// Types the line and a tab into an interactive zsh on a pseudo-terminal and prints the captured matches.
    static let zshCapture = #"""
        zmodload zsh/zpty
        zpty z zsh -f -i
        zpty -w z "fpath=(${(q)1} \$fpath); source ${(q)2}"
        zpty -n -w z "$3"$'\t'
        out=""
        while zpty -r z line; do
          out+="$line"
          [[ $line == *'<<END>>'* ]] && break
        done
        print -r -- "$out" | tr -d '\r' | grep -ao '<<[^>]*>>' | sed 's/^<<//; s/>>$//' | grep -v '^END$'
        zpty -d z
        """#

    func expectEvery(_ got: [String: [String]], _ expected: [String], _ line: String) {
        for shell in ["bash", "zsh", "fish"] {
            // zsh adds a file's folder apart, as a prefix (compadd -p): its matches are the names.
            let want = shell == "zsh" ? expected.map { String($0.split(separator: "/").last ?? "") } : expected
            #expect(got[shell].map { Set($0) } == Set(want), "\(shell): \(line) → \(got[shell] ?? [])")
        }
    }

    @Test func everyShellCompletesTheIndexsTypes() throws {
        let dir = try fixture()
        let types = ["customer", "order", "product"]
        for line in [
            "entityidx --db ../shop.sqlite search --type ", "entityidx search cafe --db ../shop.sqlite --type ",
        ] {
            expectEvery(try complete(line, in: dir), types, line)
        }
        expectEvery(try complete("entityidx --db ../shop.sqlite all --type c", in: dir), ["customer"], "--type c")
        // $ENTITYIDX_DB when there is no --db.
        let env = ["ENTITYIDX_DB": dir + "/shop.sqlite"]
        expectEvery(try complete("entityidx query --type o", in: dir, environment: env), ["order"], "ENTITYIDX_DB")
        // A missing index completes nothing, says nothing and creates nothing.
        expectEvery(try complete("entityidx --db missing.sqlite search --type ", in: dir), [], "missing index")
        #expect(!FileManager.default.fileExists(atPath: dir + "/cwd/missing.sqlite"))
    }

    @Test func everyShellCompletesFilesOptionValuesAndSubcommands() throws {
        let dir = try fixture()
        expectEvery(try complete("entityidx lint ../rec", in: dir), ["../records.ndjson"], "lint FILE")
        expectEvery(try complete("entityidx drill --restore ../res", in: dir), ["../restore.ndjson"], "drill --restore")
        expectEvery(
            try complete("entityidx ingest ../re", in: dir), ["../records.ndjson", "../restore.ndjson"], "ingest")
        expectEvery(
            try complete("entityidx related --type order 1 --direction ", in: dir), ["both", "in", "out"], "--direction"
        )
        expectEvery(try complete("entityidx reindex ", in: dir), ["ack", "pending", "request"], "reindex")
        expectEvery(try complete("entityidx completions ", in: dir), ["bash", "fish", "zsh"], "completions")
        expectEvery(try complete("entityidx sea", in: dir), ["search"], "a command")
        expectEvery(try complete("entityidx search --fi", in: dir), ["--fields", "--filter"], "an option")
    }
}
