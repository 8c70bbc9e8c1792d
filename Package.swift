// swift-tools-version:6.2

import PackageDescription

/// One settings array for every target of ours (as in swift-log's and hummingbird's manifests).
var swiftSettings: [SwiftSetting] = [
    // https://github.com/apple/swift-evolution/blob/main/proposals/0335-existential-any.md
    .enableUpcomingFeature("ExistentialAny"),
    // https://github.com/swiftlang/swift-evolution/blob/main/proposals/0444-member-import-visibility.md
    .enableUpcomingFeature("MemberImportVisibility"),
    // https://github.com/swiftlang/swift-evolution/blob/main/proposals/0409-access-level-on-imports.md
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// Warnings are errors in CI for our own targets only (not for dependencies, which would all rebuild).
if Context.environment["CI"] != nil {
    swiftSettings.append(.treatAllWarnings(as: .error))
}

let package = Package(
    name: "sharepipe",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "LinkPreviewCore", targets: ["LinkPreviewCore"]),
        .library(name: "LinkPreview", targets: ["LinkPreview"]),
        .library(name: "SharePipeProtocol", targets: ["SharePipeProtocol"]),
        .library(name: "SharePipeServer", targets: ["SharePipeServer"]),
        .library(name: "SharePipeKit", targets: ["SharePipeKit"]),
        .executable(name: "sharepipe", targets: ["sharepipe"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.0"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.0"),
        .package(url: "https://github.com/vapor/multipart-kit.git", from: "4.7.0"),
    ],
    targets: [
        // Pure: bytes in, values out. Foundation only, so it stays usable in an iOS share extension.
        .target(
            name: "LinkPreviewCore",
            swiftSettings: swiftSettings
        ),
        // The wire contract the server and its clients share: every body both sides read (a share
        // submission and its answer, device sign-in, the account, device, share and link values), the
        // rules for handles and device names, what a share submission may be (read, validated, limited
        // as the server does) and RFC 9457 problems. Foundation only, so the Kit can refuse a share the
        // server would refuse before it saves it.
        .target(
            name: "SharePipeProtocol",
            dependencies: ["LinkPreviewCore"],
            swiftSettings: swiftSettings
        ),
        // The fetcher: a URL in, `LinkMetadata` out, safely (address policy, limits, deadlines) and cached.
        .target(
            name: "LinkPreview",
            dependencies: [
                "LinkPreviewCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        // The server: accounts, devices and tokens, idempotent share ingestion, background previews.
        .target(
            name: "SharePipeServer",
            dependencies: [
                "LinkPreview", "LinkPreviewCore", "SharePipeProtocol",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            ],
            resources: [.copy("OpenAPI/openapi.json"), .copy("Web/Templates"), .copy("Web/Assets")],
            swiftSettings: swiftSettings
        ),
        // SharePipeKit: what an app and its share extension link — the durable inbox, credentials
        // with the install marker, the uploader and the extension's decision flow. Foundation and Crypto.
        .target(
            name: "SharePipeKit",
            dependencies: [
                "LinkPreviewCore", "SharePipeProtocol",
                // SHA-256 of the files it uploads (CryptoKit on Apple platforms, BoringSSL elsewhere).
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // What tests and benchmarks share: a scriptable loopback HTTP server, and the CPU a process used.
        .target(
            name: "LinkPreviewTesting",
            dependencies: [
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // What both command-line tools need: one-line errors, option checks, path checks.
        .target(
            name: "SharePipeCLISupport",
            dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings
        ),
        // The command line a user runs: the server, its accounts, previews, and the app's roles.
        .executableTarget(
            name: "sharepipe",
            dependencies: [
                "LinkPreviewCore", "LinkPreview", "SharePipeServer", "SharePipeKit", "SharePipeProtocol",
                "SharePipeCLISupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        // The developer's tool, shipped to no user: benchmarks and conformance runs against test corpora.
        .executableTarget(
            name: "sharepipe-dev",
            dependencies: [
                "LinkPreviewCore", "LinkPreview", "LinkPreviewTesting", "SharePipeServer", "SharePipeKit",
                "SharePipeCLISupport", "SharePipeProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // What several test targets share: the rules that keep the suite's timing tests honest, and helpers.
        .target(
            name: "TestSupport",
            dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Tests/TestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LinkPreviewCoreTests",
            dependencies: ["LinkPreviewCore", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LinkPreviewTests",
            dependencies: [
                "LinkPreview", "LinkPreviewCore", "LinkPreviewTesting", "TestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SharePipeServerTests",
            dependencies: [
                "SharePipeServer", "SharePipeProtocol", "LinkPreview", "LinkPreviewCore", "LinkPreviewTesting",
                "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SharePipeProtocolTests",
            dependencies: ["SharePipeProtocol", "LinkPreviewCore"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SharePipeKitTests",
            dependencies: [
                "SharePipeKit", "SharePipeProtocol", "LinkPreviewCore", "LinkPreviewTesting", "TestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        // Tests with several processes (and, later, a real PostgreSQL) — see STYLE.md.
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "LinkPreviewTesting", "TestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SharePipeCLITests",
            dependencies: [
                "sharepipe", "LinkPreviewCore", "LinkPreview", "LinkPreviewTesting", "SharePipeKit", "SharePipeCLISupport",
                "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SharePipeDevTests",
            dependencies: [
                "sharepipe-dev", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
