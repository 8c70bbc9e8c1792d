public import Foundation

/// One of the package's executables, run by the tests as a user runs it: `sharepipe`, the product,
/// or `sharepipe-dev`, the developer's tool. The binary is the one an environment variable names
/// (`SHAREPIPE_EXECUTABLE`, `SHAREPIPE_DEV_EXECUTABLE`: to test another build), else the one built
/// beside the test bundle (`swift build --build-tests` builds both).
public struct SharePipeExecutable: Sendable {
    /// The file's name in the build folder.
    public let name: String
    /// The environment variable that names another binary to test.
    public let overrideVariable: String

    /// `sharepipe`, what a user runs.
    public static let product = SharePipeExecutable(name: "sharepipe", overrideVariable: "SHAREPIPE_EXECUTABLE")
    /// `sharepipe-dev`, the benchmarks and conformance runs.
    public static let developer = SharePipeExecutable(
        name: "sharepipe-dev",
        overrideVariable: "SHAREPIPE_DEV_EXECUTABLE"
    )

    /// The binary the tests run.
    public var url: URL {
        if let path = ProcessInfo.processInfo.environment[overrideVariable] { return URL(fileURLWithPath: path) }
        let here = Bundle.main.bundleURL
        let candidates = [here, here.deletingLastPathComponent()].map { $0.appendingPathComponent(name) }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    /// Runs the executable with `ARGS…` in `folder` to completion: its exit status and what it printed
    /// (standard output and standard error together). `environment` is added to this process's,
    /// without the SHAREPIPE_ variables of whoever runs the tests.
    ///
    /// The child is waited for on a thread of its own: blocking one of the few threads Swift tasks
    /// share would stall every other test meanwhile (their HTTP clients then time out). And one child
    /// runs at a time: dozens of debug binaries starting at once take both cores from the tests
    /// that time things.
    public func run(
        _ arguments: [String],
        in folder: URL? = nil,
        environment: [String: String] = [:]
    ) async throws -> (status: Int32, output: String) {
        try await onOwnThread {
            Result { try runBlocking(arguments, in: folder, environment: environment) }
        }.get()
    }

    private static let oneAtATime = DispatchSemaphore(value: 1)

    private func runBlocking(
        _ arguments: [String],
        in folder: URL?,
        environment: [String: String]
    ) throws -> (status: Int32, output: String) {
        Self.oneAtATime.wait()
        defer { Self.oneAtATime.signal() }
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SHAREPIPE_") }
            .merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
