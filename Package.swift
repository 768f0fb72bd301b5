// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "entityidx",
    products: [
        .executable(name: "entityidx", targets: ["entityidx"]),
        .library(name: "EntityIndex", targets: ["EntityIndex"]),
    ],
    targets: [
        // Plain-C shim: SQLite helpers Swift cannot call, every ICU call (ICU headers never reach Swift), zstd and
        // zlib for stored records.
        .target(
            name: "CEntityIdx",
            linkerSettings: [
                .linkedLibrary("sqlite3"), .linkedLibrary("icuuc"), .linkedLibrary("icui18n"), .linkedLibrary("zstd"),
                .linkedLibrary("z"),
            ]
        ),
        .target(name: "SQLite", dependencies: ["CEntityIdx"]),
        .target(name: "JSON"),
        .target(name: "EntityIndex", dependencies: ["CEntityIdx", "SQLite", "JSON"]),
        // JSON-RPC 2.0 over any transport: framing, envelope, batches, response bounds, memory checks, errors.
        .target(name: "JSONRPC", dependencies: ["CEntityIdx", "EntityIndex", "JSON"]),
        .target(name: "EntityIndexPipe", dependencies: ["EntityIndex", "JSON", "JSONRPC"]),
        // A small strict HTTP/1.1 server (POSIX sockets, poll): parsing, keep-alive, bounds; no handler code. JSON
        // only for `Quoting`, the one cut of the values an error message quotes.
        .target(name: "HTTP", dependencies: ["JSON"]),
        // entityidx serve: the pipe and MCP over HTTP, the preview page, origin and token checks.
        .target(name: "EntityIndexServe", dependencies: ["EntityIndex", "EntityIndexPipe", "HTTP", "JSON", "JSONRPC"]),
        .target(name: "EntityIndexCLI", dependencies: ["EntityIndex", "EntityIndexPipe", "EntityIndexServe", "HTTP", "JSON"]),
        .executableTarget(name: "entityidx", dependencies: ["EntityIndexCLI"]),
        .executableTarget(name: "entityidx-fuzz", dependencies: ["EntityIndex", "JSON", "JSONRPC", "HTTP"]),
        .executableTarget(name: "entityidx-bench", dependencies: ["EntityIndex", "JSON", "SQLite"]),
        .target(name: "TestSupport", dependencies: ["EntityIndex", "JSON"]),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON"]),
        .testTarget(name: "EntityIndexTests", dependencies: ["EntityIndex", "JSON", "TestSupport"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP"]),
        .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC", "EntityIndex", "JSON"]),
        .testTarget(name: "EntityIndexPipeTests", dependencies: ["EntityIndexPipe", "EntityIndex", "JSON", "JSONRPC", "TestSupport"]),
        .testTarget(name: "EntityIndexCLITests", dependencies: ["EntityIndexCLI", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["JSON", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
