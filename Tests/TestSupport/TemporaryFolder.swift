public import Foundation

/// Folders the command-line tests give the executables to work in.
public enum TemporaryFolder {
    /// A new empty folder under the temporary directory; the caller removes it.
    public static func make() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sharepipe-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
