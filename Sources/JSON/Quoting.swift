/// A value a client sent, quoted in an error message: in double quotes, and cut after `maxCharacters` characters
/// with `…` and its full length in bytes, so that an error stays small whatever the request held.
///
/// Every message that quotes a name or value it was given (an unknown method, parameter, field, property or type,
/// an argument on the command line) quotes it here; the suggestions and lists of known names it adds are the
/// program's own. Cutting reads at most `maxCharacters + 1` characters and the length in bytes, so a megabyte
/// costs no more than a short name.
public enum Quoting {
    /// The most characters of a value a message quotes.
    public static let maxCharacters = 64

    /// `text` in double quotes, cut after `maxCharacters` characters: `"abc"`, or `"abcd…" (1048576 bytes)`.
    public static func quoted(_ text: some StringProtocol) -> String {
        guard isLong(text) else { return "\"\(text)\"" }
        return "\"\(text.prefix(maxCharacters))…\" (\(text.utf8.count) bytes)"
    }

    /// `text` as it is written without quotes (an option `--limt`, an attribute name), cut like `quoted`:
    /// `abcd… (1048576 bytes)`.
    public static func unquoted(_ text: some StringProtocol) -> String {
        guard isLong(text) else { return String(text) }
        return "\(text.prefix(maxCharacters))… (\(text.utf8.count) bytes)"
    }

    /// At most `maxCharacters` characters of `text`, with `…` when it was cut: for a value kept as data (a field of an
    /// error's `data`, the path of a field in a record) rather than written in a sentence.
    public static func prefix(_ text: some StringProtocol) -> String {
        isLong(text) ? String(text.prefix(maxCharacters)) + "…" : String(text)
    }

    /// The most names a list in a message shows (`Quoting.names`).
    public static let maxNames = 16

    /// Names joined with `, ` for a list a message adds (`known: a, b`): the first `maxNames`, each cut like
    /// `unquoted`, then how many more there are, so that a list read from an index stays short.
    public static func names(_ names: some Collection<String>) -> String {
        let shown = names.prefix(maxNames).map { unquoted($0) }.joined(separator: ", ")
        return names.count > maxNames ? shown + " and \(names.count - maxNames) more" : shown
    }

    /// Whether `text` has more than `maxCharacters` characters, reading no more than one past them.
    static func isLong(_ text: some StringProtocol) -> Bool {
        text.utf8.count > maxCharacters && text.prefix(maxCharacters + 1).count > maxCharacters
    }
}
