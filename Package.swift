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
        // zlib for stored records, MeCab for the readings of Japanese words.
        .target(
            name: "CEntityIdx",
            linkerSettings: [
                .linkedLibrary("sqlite3"), .linkedLibrary("icuuc"), .linkedLibrary("icui18n"), .linkedLibrary("zstd"),
                .linkedLibrary("z"), .linkedLibrary("mecab"),
            ]
        ),
        // What the process asks of the system, written once: stop signals, memory room, descriptor calls with their
        // EINTR retries, clocks.
        .target(name: "System", dependencies: ["CEntityIdx"]),
        .target(name: "SQLite", dependencies: ["CEntityIdx", "System"]),
        .target(name: "JSON", dependencies: ["System"]),
        .target(name: "EntityIndex", dependencies: ["CEntityIdx", "SQLite", "JSON", "System"]),
        // JSON-RPC 2.0 over any transport: framing, envelope, batches, response bounds, memory checks, errors.
        .target(name: "JSONRPC", dependencies: ["JSON", "System"]),
        .target(name: "EntityIndexPipe", dependencies: ["EntityIndex", "JSON", "JSONRPC"]),
        // A small strict HTTP/1.1 server (POSIX sockets, poll): parsing, keep-alive, bounds; no handler code. JSON
        // only for `Quoting`, the one cut of the values an error message quotes; System for its descriptor calls.
        .target(name: "HTTP", dependencies: ["JSON", "System"]),
        // entityidx serve: the pipe and MCP over HTTP, the preview page, origin and token checks.
        .target(name: "EntityIndexServe", dependencies: ["EntityIndex", "EntityIndexPipe", "HTTP", "JSON", "JSONRPC"]),
        .target(
            name: "EntityIndexCLI",
            dependencies: ["EntityIndex", "EntityIndexPipe", "EntityIndexServe", "HTTP", "JSON", "System"]),
        .executableTarget(name: "entityidx", dependencies: ["EntityIndexCLI"]),
        .executableTarget(name: "entityidx-fuzz", dependencies: ["EntityIndex", "JSON", "JSONRPC", "HTTP"]),
        .executableTarget(name: "entityidx-bench", dependencies: ["EntityIndex", "JSON", "SQLite", "System"]),
        .target(name: "TestSupport", dependencies: ["EntityIndex", "JSON", "System"]),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON"]),
        .testTarget(name: "EntityIndexTests", dependencies: ["EntityIndex", "JSON", "TestSupport"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP"]),
        .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC", "EntityIndex", "JSON"]),
        .testTarget(
            name: "EntityIndexPipeTests",
            dependencies: ["EntityIndexPipe", "EntityIndex", "JSON", "JSONRPC", "TestSupport"]),
        .testTarget(name: "EntityIndexCLITests", dependencies: ["EntityIndexCLI", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["JSON", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
