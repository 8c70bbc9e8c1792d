// swift-tools-version:6.2

// libFuzzer targets for LinkPreviewCore. A package of its own, so the fuzzing flags never touch the
// main build: see docs/fuzzing.md, and run `Fuzz/run.sh [seconds]`.

import Foundation
import PackageDescription

/// The same settings as the root package's targets.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// A path dependency's identity is the name of its folder, which is whatever the checkout is called.
let rootPackage = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "sharepipe-fuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: "..")
    ],
    targets: [
        // Build with `--sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address` (run.sh does; docs/fuzzing.md says
        // why both): libFuzzer provides `main` and calls `LLVMFuzzerTestOneInput` in main.swift.
        .executableTarget(
            name: "FuzzExtractor",
            dependencies: [.product(name: "LinkPreviewCore", package: rootPackage)],
            swiftSettings: swiftSettings
        )
    ]
)
