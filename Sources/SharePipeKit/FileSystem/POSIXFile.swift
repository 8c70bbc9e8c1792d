import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The few POSIX calls the inbox's durability rests on, with `errno` turned into ``ShareInboxError``.
///
/// Foundation's `Data.write(options: .atomic)` renames over an existing file and never syncs the
/// folder; the inbox needs "never overwrite" and "durable once the call returns", so it speaks POSIX.
enum POSIXFile {
    /// Creates `path` (failing if it exists), writes `data`, and — when `sync` — fsyncs it before closing.
    /// A file this call created is removed again if writing or syncing it fails (a full disk), so no
    /// empty or partial file is left where a whole one is expected.
    static func create(_ path: String, data: Data, sync: Bool, mode: mode_t = 0o600) throws {
        try createWriting(path, sync: sync, mode: mode) { fd in
            try data.withUnsafeBytes { try writeAll($0, to: fd, path: path) }
        }
    }

    /// Creates `path` (failing if it exists), lets `write` fill it through its descriptor, and — when
    /// `sync` — fsyncs it before closing. If `write` or the sync throws, the file is removed again.
    static func createWriting(_ path: String, sync: Bool, mode: mode_t = 0o600, _ write: (Int32) throws -> Void) throws
    {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw ShareInboxError.io("create", path: path, errno: errno) }
        var written = false
        defer {
            close(fd)
            if !written { unlink(path) }
        }
        try write(fd)
        if sync, fsync(fd) != 0 { throw ShareInboxError.io("fsync", path: path, errno: errno) }
        written = true
    }

    /// Writes all of `buffer` to `fd` (the file at `path`, for the error), however many calls it takes.
    static func writeAll(_ buffer: UnsafeRawBufferPointer, to fd: Int32, path: String) throws {
        var offset = 0
        while offset < buffer.count {
            let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw ShareInboxError.io("write", path: path, errno: errno)
            }
            offset += written
        }
    }

    /// Writes `data` into `path` in place (created or truncated), unsynced: only for small files that
    /// are written and read under the same lock. A symbolic link in `path`'s place is not followed
    /// (the write would land in whatever it points at, a credential say): it is removed and the file
    /// written in its place.
    static func overwrite(_ path: String, data: Data) throws {
        var fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd < 0 && errno == ELOOP {
            unlink(path)
            fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        }
        guard fd >= 0 else { throw ShareInboxError.io("create", path: path, errno: errno) }
        defer { close(fd) }
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == data.count else { throw ShareInboxError.io("write", path: path, errno: errno) }
    }

    /// Replaces `path` with `data` through a temporary file beside it (for state the owner may
    /// overwrite: a lease, an item's delivery state). Not synced unless `sync`.
    static func replace(_ path: String, data: Data, sync: Bool) throws {
        let temporary = path + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        try create(temporary, data: data, sync: sync)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw ShareInboxError.io("rename", path: path, errno: code)
        }
    }

    /// Makes the entries of the folder at `path` durable (after a rename or link into it).
    static func syncDirectory(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw ShareInboxError.io("open folder", path: path, errno: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw ShareInboxError.io("fsync folder", path: path, errno: errno) }
    }

    /// Gives `source` the new name `destination` without ever replacing an existing file: `false`
    /// when `destination` exists. (`link` is atomic and refuses to overwrite, unlike `rename`.)
    static func linkWithoutReplacing(_ source: String, _ destination: String) throws -> Bool {
        if link(source, destination) == 0 { return true }
        if errno == EEXIST { return false }
        throw ShareInboxError.io("link", path: destination, errno: errno)
    }

    /// Removes a file; a file already gone is not an error.
    static func remove(_ path: String) {
        unlink(path)
    }

    /// Removes whatever stands at `path`: a file, a link, a pipe, or a folder one level deep.
    static func discard(_ path: String) {
        if unlink(path) != 0 { removeFolder(path) }
    }

    /// Removes a folder and what it holds (one level deep, as attachments are); gone is fine. A
    /// symbolic link in the folder's place is removed itself: what it points to is not this inbox's.
    static func removeFolder(_ path: String) {
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            unlink(path)
            return
        }
        for name in list(path) { unlink(path + "/" + name) }
        rmdir(path)
    }

    /// Whether anything (a file, a folder, a link, even a dangling one) stands at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// The most bytes ``read(_:)`` takes from one file: 1 MiB. Every file the inbox and the credential
    /// store read (a record, a state, a lease, a credential) is a few KiB at most.
    static let maxReadBytes = 1 << 20

    /// The whole content of a file, or `nil` when it does not exist.
    ///
    /// Only a regular file of at most ``maxReadBytes`` is read: anything else in its place (a folder, a
    /// symbolic link, a named pipe, a device, a huge file) throws ``ShareInboxError/Code/unusableFile``
    /// at once rather than blocking or reading without end. A file this user may not read now (one
    /// written under `sudo`, or locked by data protection) throws ``ShareInboxError/Code/notPermitted``:
    /// like the others it is one file readers pass over and go on, where an I/O error stops them.
    static func read(_ path: String) throws -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw ShareInboxError.unusable(path, because: "it is a symbolic link") }
            if errno == EACCES || errno == EPERM { throw ShareInboxError.unreadable(path) }
            throw ShareInboxError.io("open", path: path, errno: errno)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ShareInboxError.io("read", path: path, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw ShareInboxError.unusable(path, because: "it is not a regular file")
        }
        guard info.st_size <= maxReadBytes else {
            throw ShareInboxError.unusable(path, because: "it holds more than \(maxReadBytes) bytes")
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glue.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ShareInboxError.io("read", path: path, errno: errno)
            }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
            if data.count > maxReadBytes {
                throw ShareInboxError.unusable(path, because: "it holds more than \(maxReadBytes) bytes")
            }
        }
    }

    /// The names in a folder (without `.` and `..`), unsorted; empty when it does not exist.
    ///
    /// The name is read in place, up to its NUL. An entry `readdir` returns is only as long as its
    /// name needs (`d_reclen`), so copying a whole `dirent` (`entry.pointee`) reads past the last
    /// entry of the library's buffer, and crashes when that buffer ends at the end of a page.
    static func list(_ path: String) -> [String] {
        (try? listOrThrow(path)) ?? []
    }

    /// As ``list(_:)``, but a folder that exists and cannot be read (too many open files, no
    /// permission) throws instead of reading as empty: for a caller that deletes what the listing
    /// does not name.
    static func listOrThrow(_ path: String) throws -> [String] {
        guard let directory = opendir(path) else {
            if errno == ENOENT { return [] }
            throw ShareInboxError.io("list", path: path, errno: errno)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = String(cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Where `d_name` starts in a `dirent`.
    private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

    /// The size in bytes of a file, or 0 when it does not exist.
    static func size(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// The link count of a file or folder, or 0 when it does not exist.
    static func linkCount(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_nlink) : 0
    }

    /// The modification time of a file or folder in nanoseconds, or `nil` when it does not exist.
    static func modificationStamp(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        return Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #else
        return Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #endif
    }

    /// Creates a folder (and its parents) if missing.
    static func makeFolder(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw ShareInboxError(code: .io, message: "Cannot create the folder \(path).", underlying: error)
        }
    }

    /// Whether a process with this id exists on this machine (`kill(pid, 0)`; a process we may not
    /// signal still exists).
    static func processExists(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// This process's id (read once: a process keeps its id).
    static let processID: Int32 = getpid()

    /// When the process `pid` started, in clock ticks since boot (Linux: field 22 of
    /// `/proc/<pid>/stat`); `nil` where that is not available.
    static func processStartTime(_ pid: Int32) -> UInt64? {
        #if os(Linux)
        guard let data = try? read("/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the command's ")": state is field 3, so start time (22) is the 20th.
        return fields.count > 19 ? UInt64(fields[19]) : nil
        #else
        return nil
        #endif
    }

    /// This process's start time, read once.
    static let ownStartTime: UInt64? = processStartTime(getpid())
}

/// `read(2)` under a name that does not clash with the static methods above.
enum Glue {
    static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Darwin)
        return Darwin.read(fd, buffer, count)
        #elseif canImport(Glibc)
        return Glibc.read(fd, buffer, count)
        #else
        return Musl.read(fd, buffer, count)
        #endif
    }
}
