import EntityIndex
import JSON

// MARK: - For CI: JUnit XML, TAP 14, GitHub workflow commands

extension ExpectationReport {
    /// JUnit XML: a `testsuite` per file (its `file` the file), a `testcase` per case, a `failure` (or an `error`,
    /// for a wrong request) whose text starts with the case's `FILE:LINE`, then each expectation that did not hold.
    ///
    /// The shape CI servers read (https://github.com/testmoapp/junitxml), valid against the JUnit XML schema of
    /// Jenkins (Tests/Clients/junit-10.xsd): a `testcase` has no `file` or `line` there, and times have at most
    /// three decimals.
    var junit: String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            "<testsuites name=\"entityidx test\" tests=\"\(outcomes.count)\" failures=\"\(failed)\" errors=\"\(wrong)\" time=\"\(Self.time(seconds))\">\n"
        for file in files {
            let mine = outcomes.filter { $0.file == file }
            let failures = mine.count { $0.status == .failed }
            let errors = mine.count { $0.status == .wrong }
            let time = Self.time(mine.reduce(0) { $0 + $1.seconds })
            xml +=
                "  <testsuite name=\"\(Self.xml(file))\" file=\"\(Self.xml(file))\" tests=\"\(mine.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(time)\">\n"
            for o in mine {
                xml +=
                    "    <testcase name=\"\(Self.xml(o.testCase.name))\" classname=\"\(Self.xml(file))\" time=\"\(Self.time(o.seconds))\""
                guard o.status != .passed else {
                    xml += "/>\n"
                    continue
                }
                let element = o.status == .wrong ? "error" : "failure"
                let message = o.failures.map { "\($0.expectation): \($0.message)" }.joined(separator: "; ")
                let type = o.failures.first?.expectation ?? "failure"
                var body = "\(file):\(o.testCase.line)\n"
                body += o.failures.map { "\($0.expectation): \($0.message)\n" }.joined()
                body += Self.sideBySide(o).map { $0 + "\n" }.joined()
                xml += ">\n      <\(element) message=\"\(Self.xml(message))\" type=\"\(Self.xml(type))\">"
                xml += Self.xml(body) + "</\(element)>\n    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    /// TAP version 14: `ok N - name`, and under a failure a YAML block with what did not hold
    /// (https://testanything.org/tap-version-14-specification.html).
    var tap: String {
        var text = "TAP version 14\n1..\(outcomes.count)\n"
        for (i, o) in outcomes.enumerated() {
            let name = Self.tapName(o.testCase.name)
            guard o.status != .passed else {
                text += "ok \(i + 1) - \(name)\n"
                continue
            }
            text += "not ok \(i + 1) - \(name)\n  ---\n"
            text +=
                "  message: \(Self.yaml(o.failures.map { "\($0.expectation): \($0.message)" }.joined(separator: "; ")))\n"
            text += "  severity: \(o.status == .wrong ? "error" : "fail")\n"
            text += "  at:\n    file: \(Self.yaml(o.file))\n    line: \(o.testCase.line)\n"
            text += "  request: \(Self.yaml(o.testCase.summary))\n"
            if o.error == nil {
                text += "  got:\n" + o.got.prefix(20).map { "    - \(Self.yaml($0))\n" }.joined()
                if let top = o.testCase.expect.top {
                    text += "  expected:\n" + top.map { "    - \(Self.yaml($0))\n" }.joined()
                }
            }
            text += "  ...\n"
        }
        return text
    }

    /// GitHub Actions workflow commands: an `::error` at the line of each case that does not hold, then the summary
    /// (https://docs.github.com/actions/reference/workflow-commands-for-github-actions).
    var github: String {
        var text = ""
        for o in outcomes where o.status != .passed {
            let title = Self.property("entityidx test: \(o.testCase.name)")
            var message = o.failures.map { "\($0.expectation): \($0.message)" }.joined(separator: "\n")
            let rows = o.error == nil ? Self.sideBySide(o) : []
            if !rows.isEmpty { message += "\n" + rows.joined(separator: "\n") }
            text +=
                "::error file=\(Self.property(o.file)),line=\(o.testCase.line),title=\(title)::\(Self.data(message))\n"
        }
        return text + summary + "\n"
    }

    // MARK: - Escaping

    /// Seconds with three decimals, as Surefire writes them (the schema's `SUREFIRE_TIME` allows no more).
    static func time(_ seconds: Double) -> String {
        let millis = Int((seconds * 1e3).rounded())
        let fraction = String(millis % 1000)
        return "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// Text for an XML attribute or element: the five entities, and control characters XML 1.0 cannot hold dropped.
    static func xml(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A YAML scalar: a JSON string is one.
    static func yaml(_ text: String) -> String { JSONWriter.string(.string(text)) }

    /// A TAP test point's description: no `#` (which starts a directive) and one line.
    static func tapName(_ name: String) -> String {
        name.replacing("\\", with: "\\\\").replacing("#", with: "\\#")
            .replacing("\n", with: " ")
    }

    /// A workflow command's message: `%`, CR and LF escaped.
    public static func data(_ text: String) -> String {
        text.replacing("%", with: "%25").replacing("\r", with: "%0D")
            .replacing("\n", with: "%0A")
    }

    /// A workflow command's property: as a message, and `:` and `,` too.
    public static func property(_ text: String) -> String {
        data(text).replacing(":", with: "%3A").replacing(",", with: "%2C")
    }
}
