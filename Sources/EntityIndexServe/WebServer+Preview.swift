import HTTP

/// The preview page's files, embedded in the binary (generated from web/ by scripts/gen-web-assets.sh).
public enum PreviewAssets {
    /// The file served at `path` (`/` is `/index.html`), nil for none.
    public static func file(_ path: String) -> (type: String, text: String)? {
        files[path == "/" ? "/index.html" : path]
    }
}

extension WebServer {
    /// What a page may load and run: its own files and scripts, images from anywhere a record points (`image`),
    /// requests to this server only.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: https: http:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    func asset(_ path: String) -> HTTPResponse {
        guard let file = PreviewAssets.file(path) else { return Self.text(404, "nothing at \(path)") }
        return HTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", file.type), ("Cache-Control", "no-cache"),
                ("Content-Security-Policy", Self.contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
                ("Referrer-Policy", "no-referrer"),
            ],
            body: .bytes(Array(file.text.utf8)))
    }
}
