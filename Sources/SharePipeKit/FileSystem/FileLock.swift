import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An exclusive `flock(2)` on a file, held until ``unlock()`` or until the process dies (the kernel
/// drops it then, so a crashed holder never blocks anyone). Lock files are opened without following
/// symbolic links: one planted in a lock's place fails the open (`ELOOP`) instead of truncating or
/// locking whatever it points at.
///
/// `flock` locks belong to an open file description, not to a process (unlike `fcntl` locks), so two
/// locks taken in one process on the same file exclude each other too. The inbox holds its locks for
/// milliseconds only: on iOS a suspended process that holds a lock on a file in a shared container
/// is killed by the system (0xdead10cc), so nothing may hold one across suspension.
final class FileLock {
    private var descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Takes the lock on `path` (creating the file), waiting for it when `wait` is true; `nil` when
    /// `wait` is false and another holder has it.
    static func acquire(_ path: String, wait: Bool) throws -> FileLock? {
        try acquire(path, wait: wait, created: nil)
    }

    /// As ``acquire(_:wait:)``; `created` is set to whether this call created the file (then it is
    /// empty and nobody else can have written to it).
    ///
    /// A file this call creates is locked waiting, whatever `wait` says: the only other holder it can
    /// meet is a ``probe(_:)`` (the inbox's sweep), which holds it for a moment. The lock returned is
    /// always on the file that `path` names: a prober that removed the file between this call's
    /// `open` and its `flock` would leave it holding a lock no other process can see, so it starts over.
    static func acquire(_ path: String, wait: Bool, created: UnsafeMutablePointer<Bool>?) throws -> FileLock? {
        while true {
            var fd: Int32
            var isNew = false
            if created != nil {
                fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
                isNew = fd >= 0
                if fd < 0 && errno == EEXIST {
                    fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
                    if fd < 0 && errno == ENOENT { continue }  // removed between the two opens
                }
            } else {
                // Readable by all (it holds nothing), and opened read-only when it cannot be opened to
                // write (flock needs neither): a lock file left by a `sudo` run does not stop the user.
                fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
                if fd < 0 && (errno == EACCES || errno == EPERM) {
                    fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
                }
            }
            guard fd >= 0 else { throw ShareInboxError.io("open lock", path: path, errno: errno) }
            guard try lock(fd, wait: wait || isNew, path: path) else { return nil }
            guard isStillNamed(fd, path) else {
                close(fd)
                continue
            }
            created?.pointee = isNew
            return FileLock(descriptor: fd)
        }
    }

    /// `flock`s `fd`: true when locked, false when `wait` is false and someone else holds it (then
    /// `fd` is closed, as on an error).
    private static func lock(_ fd: Int32, wait: Bool, path: String) throws -> Bool {
        while flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0 {
            let code = errno
            if code == EINTR { continue }
            close(fd)
            if code == EWOULDBLOCK { return false }
            throw ShareInboxError.io("flock", path: path, errno: code)
        }
        return true
    }

    /// Whether `path` still names the file open as `fd` (not removed, nor replaced, meanwhile).
    private static func isStillNamed(_ fd: Int32, _ path: String) -> Bool {
        var locked = stat()
        var named = stat()
        guard fstat(fd, &locked) == 0, stat(path, &named) == 0 else { return false }
        return locked.st_dev == named.st_dev && locked.st_ino == named.st_ino
    }

    /// What ``probe(_:)`` found.
    enum Probe {
        /// No file at the path.
        case absent
        /// Someone holds the lock.
        case held
        /// Nobody held it; now this process does.
        case acquired(FileLock)
    }

    /// Tries the lock on an existing file without creating it or waiting; a file this user may not
    /// open counts as held.
    static func probe(_ path: String) throws -> Probe {
        let fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            if errno == ENOENT { return .absent }
            // Another user's file (a `sudo` run, perhaps still going): whether a writer holds it cannot
            // be told, so it is left alone, as a held one is, rather than stopping the sweep.
            if errno == EACCES || errno == EPERM { return .held }
            // A symbolic link is no writer's lock: removed, as anything else not ours in `tmp/` is.
            if errno == ELOOP {
                unlink(path)
                return .absent
            }
            throw ShareInboxError.io("open lock", path: path, errno: errno)
        }
        guard try lock(fd, wait: false, path: path) else { return .held }
        // Its holder may have removed it between this open and the flock.
        guard isStillNamed(fd, path) else {
            close(fd)
            return .absent
        }
        return .acquired(FileLock(descriptor: fd))
    }

    /// Replaces the locked file's content with `data`, fsynced when `sync`. `isEmpty`: the file is
    /// known to be empty (no truncation needed).
    func write(_ data: Data, sync: Bool, path: String, isEmpty: Bool = false) throws {
        if !isEmpty, ftruncate(descriptor, 0) != 0 { throw ShareInboxError.io("truncate", path: path, errno: errno) }
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = pwrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset, off_t(offset))
                if written < 0 {
                    if errno == EINTR { continue }
                    throw ShareInboxError.io("write", path: path, errno: errno)
                }
                offset += written
            }
        }
        if sync, fsync(descriptor) != 0 { throw ShareInboxError.io("fsync", path: path, errno: errno) }
    }

    /// Runs `body` while holding the lock on `path`.
    static func withLock<T>(_ path: String, _ body: () throws -> T) throws -> T {
        let lock = try acquire(path, wait: true)!
        defer { lock.unlock() }
        return try body()
    }

    /// Releases the lock (closing the descriptor releases it).
    func unlock() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit { unlock() }
}
