public import Foundation

/// The `sharepipe` executable the tests run as a user runs it: `SHAREPIPE_EXECUTABLE` when set (to
/// test another build), else the one built beside the test bundle (`swift build --build-tests`
/// builds it too).
public enum SharePipeExecutable {
    public static var url: URL {
        if let path = ProcessInfo.processInfo.environment["SHAREPIPE_EXECUTABLE"] { return URL(fileURLWithPath: path) }
        let here = Bundle.main.bundleURL
        let candidates = [here, here.deletingLastPathComponent()].map { $0.appendingPathComponent("sharepipe") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }
}
