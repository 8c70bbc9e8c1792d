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
        .executable(name: "sharepipe", targets: ["sharepipe"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0")
    ],
    targets: [
        // Pure: bytes in, values out. Foundation only, so it stays usable in an iOS share extension.
        .target(
            name: "LinkPreviewCore",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "sharepipe",
            dependencies: [
                "LinkPreviewCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LinkPreviewCoreTests",
            dependencies: ["LinkPreviewCore"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SharePipeCLITests",
            dependencies: [
                "sharepipe", "LinkPreviewCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
