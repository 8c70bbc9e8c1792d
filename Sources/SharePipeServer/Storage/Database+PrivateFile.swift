#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Database {
    /// Creates a new SQLite database file readable by its owner alone (mode 0600), before SQLite
    /// opens it: it holds password and token hashes and the image relay's signing key, and SQLite
    /// would create it under the umask (0644, readable by every local user). SQLite gives its `-wal`
    /// and `-shm` files the database file's mode. An existing file is left as its owner set it.
    static func createPrivately(_ path: String) {
        // SQLite reads ":memory:" as a database in memory, and "file:" as a URI: no file to make.
        guard path != ":memory:", !path.hasPrefix("file:") else { return }
        createOwnerOnlyFile(path)
    }
}

/// Creates `path` with mode 0600 unless something is there. (A free function: inside `Database`,
/// `open` names its own `open(_:logger:)`.) EEXIST is the usual case; any other failure is SQLite's
/// to report, in its own words.
private func createOwnerOnlyFile(_ path: String) {
    let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
    if descriptor >= 0 { close(descriptor) }
}
