package import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks a path before SQLite opens it, so that what would be "cantOpen" or "notADatabase" is said
/// in words: a folder, a folder that is missing or not writable, a file that is not SQLite.
package enum SQLiteFileCheck {
    /// What is wrong with `path` as a SharePipe SQLite database, or nil when SQLite may open it.
    ///
    /// - Parameter mustExist: whether a missing file is a problem (a command that needs accounts in it)
    ///   rather than a database to create.
    package static func problem(atPath path: String, mustExist: Bool) -> String? {
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        if exists, isFolder.boolValue {
            return "\(path) is a folder, not a database file: pass --database with a file path, such as "
                + "\((path as NSString).appendingPathComponent("sharepipe.sqlite"))."
        }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let empty = exists && size(of: path) == 0 && !FileManager.default.fileExists(atPath: path + "-wal")
        if mustExist, !exists || empty {
            return "No SharePipe database at \(absolute): run this where `sharepipe serve` keeps its database, "
                + "or pass --database."
        }
        let folder = (absolute as NSString).deletingLastPathComponent
        var folderIsFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &folderIsFolder), folderIsFolder.boolValue
        else {
            return
                "The folder \(folder) does not exist: create it, or pass --database with a path in a folder that does."
        }
        // In WAL mode SQLite writes -wal and -shm files beside the database, even to read it.
        guard access(folder, W_OK | X_OK) == 0 else {
            return "The folder \(folder) is not writable, and the database \(path) needs to write there: "
                + "run where this user may write, or pass --database with a path in a writable folder."
        }
        guard exists else { return nil }
        guard access(path, R_OK | W_OK) == 0 else {
            return "\(path) cannot be read and written by this user: change its permissions, or pass --database."
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return "\(path) cannot be read: change its permissions, or pass --database."
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        if !header.isEmpty, header != Self.header { return notADatabase(path) }
        return nil
    }

    /// The first 16 bytes of every SQLite database file.
    package static let header = Data("SQLite format 3\0".utf8)

    /// What to say about a file that is not a SQLite database.
    package static func notADatabase(_ path: String) -> String {
        "\(path) is not a SharePipe database (not a SQLite file): pass --database with the server's "
            + "database, or with a path where a new one may be made."
    }

    static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
