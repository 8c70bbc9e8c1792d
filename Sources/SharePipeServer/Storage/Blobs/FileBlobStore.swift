#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
package import Foundation
package import NIOCore
import NIOPosix
package import SQLKit
import SharePipeProtocol

/// Blobs as files in a folder beside the SQLite database: `uploads/USER-SHA256` while an upload
/// arrives, `blobs/AB/SHA256` once it is complete and checked.
///
/// An upload's stored size is its file's size: each append is written and `fsync`ed before it
/// returns. A blob appears by `rename` of its fsynced upload file (then the folder is fsynced), so a
/// blob file is always whole; a crash between that and the rows leaves a file no row names, which
/// ``inventory(in:)`` finds for housekeeping. The files are the server's own (mode 0600, folders 0700).
package struct FileBlobStore: BlobStore {
    package let root: URL
    /// Whether the store is a temporary folder of its own (an in-memory database's), removed on close.
    package let isTemporary: Bool
    package var pieceSize: Int { 1 << 20 }
    package var changesWithRows: Bool { false }

    /// Opens the store at `root`, making its folders if missing.
    package init(root: URL, isTemporary: Bool = false) throws {
        self.root = root
        self.isTemporary = isTemporary
        for folder in [root, root.appendingPathComponent("uploads"), root.appendingPathComponent("blobs")] {
            try FileManager.default.createDirectory(
                at: folder,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        }
    }

    /// A new temporary store in `folder` (for an in-memory database).
    package init(temporaryIn folder: URL) throws {
        try self.init(root: folder.appendingPathComponent("sharepipe-blobs-\(UUID().uuidString)"), isTemporary: true)
    }

    /// The store beside SQLite database file `path`: `PATH-blobs/`.
    package static func beside(databaseFile path: String) throws -> FileBlobStore {
        try FileBlobStore(root: URL(fileURLWithPath: path + "-blobs"))
    }

    func uploadPath(_ upload: UploadKey) -> String {
        root.appendingPathComponent("uploads/\(upload.userID.uuidString.lowercased())-\(upload.sha256)").path
    }

    func blobPath(_ sha256: String) -> String {
        root.appendingPathComponent("blobs/\(sha256.prefix(2))/\(sha256)").path
    }

    package func received(_ upload: UploadKey, in sql: any SQLDatabase) async throws -> Int64 {
        try await Self.io { Self.size(of: uploadPath(upload)) ?? 0 }
    }

    package func append(_ bytes: ByteBuffer, to upload: UploadKey, at offset: Int64, in sql: any SQLDatabase) async throws {
        try await append(bytes, to: upload, at: offset)
    }

    /// ``append(_:to:at:in:)`` without the database: the file store needs none, so the database
    /// writes an upload's pieces outside its one writer, side by side with other uploads.
    func append(_ bytes: ByteBuffer, to upload: UploadKey, at offset: Int64) async throws {
        let path = uploadPath(upload)
        try await Self.io {
            let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw Self.failure("open", path) }
            defer { close(fd) }
            guard ftruncate(fd, off_t(offset)) == 0 else { throw Self.failure("ftruncate", path) }
            var position = off_t(offset)
            try bytes.withUnsafeReadableBytes { buffer in
                var start = 0
                while start < buffer.count {
                    let written = pwrite(fd, buffer.baseAddress! + start, buffer.count - start, position)
                    if written < 0, errno == EINTR { continue }
                    guard written > 0 else { throw Self.failure("pwrite", path) }
                    start += written
                    position += off_t(written)
                }
            }
            guard fsync(fd) == 0 else { throw Self.failure("fsync", path) }
            if offset == 0 { try Self.syncFolder(of: path) }
        }
    }

    package func readUpload(_ upload: UploadKey, at offset: Int64, in sql: any SQLDatabase) async throws -> ByteBuffer {
        try await readUpload(upload, at: offset)
    }

    /// ``readUpload(_:at:in:)`` without the database.
    func readUpload(_ upload: UploadKey, at offset: Int64) async throws -> ByteBuffer {
        try await read(uploadPath(upload), at: offset)
    }

    /// When the upload's file was last written, if it has one: its last piece's time, which the
    /// database does not write for each piece.
    func lastWritten(_ upload: UploadKey) async throws -> Date? {
        let path = uploadPath(upload)
        return try await Self.io {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            #if canImport(Darwin)
            let time = info.st_mtimespec
            #else
            let time = info.st_mtim
            #endif
            return Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
        }
    }

    package func publish(_ upload: UploadKey, in sql: any SQLDatabase) async throws {
        let from = uploadPath(upload)
        let to = blobPath(upload.sha256)
        try await Self.io {
            if Self.size(of: to) != nil {
                unlink(from)
                return
            }
            let folder = (to as NSString).deletingLastPathComponent
            if mkdir(folder, 0o700) != 0, errno != EEXIST { throw Self.failure("mkdir", folder) }
            guard rename(from, to) == 0 else { throw Self.failure("rename", from) }
            try Self.syncFolder(of: to)
        }
    }

    package func discard(_ upload: UploadKey, in sql: any SQLDatabase) async throws {
        try await Self.removeIfThere(uploadPath(upload))
    }

    package func readBlob(_ sha256: String, at offset: Int64, in sql: any SQLDatabase) async throws -> ByteBuffer {
        try await readBlob(sha256, at: offset)
    }

    /// ``readBlob(_:at:in:)`` without the database.
    func readBlob(_ sha256: String, at offset: Int64) async throws -> ByteBuffer {
        try await read(blobPath(sha256), at: offset)
    }

    package func removeBlob(_ sha256: String, in sql: any SQLDatabase) async throws {
        try await Self.removeIfThere(blobPath(sha256))
    }

    /// Removes the file at `path`; one that is not there is no failure.
    private static func removeIfThere(_ path: String) async throws {
        try await io { if unlink(path) != 0, errno != ENOENT { throw failure("unlink", path) } }
    }

    package func inventory(in sql: any SQLDatabase) async throws -> (blobs: Set<String>, uploads: Set<UploadKey>) {
        try await Self.io {
            let files = FileManager.default
            var blobs: Set<String> = []
            for folder in (try? files.contentsOfDirectory(atPath: root.appendingPathComponent("blobs").path)) ?? [] {
                let path = root.appendingPathComponent("blobs/\(folder)").path
                for name in (try? files.contentsOfDirectory(atPath: path)) ?? [] where UploadLimits.isSHA256(name) {
                    blobs.insert(name)
                }
            }
            var uploads: Set<UploadKey> = []
            for name in (try? files.contentsOfDirectory(atPath: root.appendingPathComponent("uploads").path)) ?? [] {
                // USER-SHA256: a lowercased UUID (36 characters), a dash, 64 hex digits.
                guard name.count == 101, let user = UUID(uuidString: String(name.prefix(36))) else { continue }
                let sha = String(name.suffix(64))
                if UploadLimits.isSHA256(sha) { uploads.insert(UploadKey(userID: user, sha256: sha)) }
            }
            return (blobs, uploads)
        }
    }

    /// Up to ``pieceSize`` bytes of `path` from `offset`, off the event loops.
    private func read(_ path: String, at offset: Int64) async throws -> ByteBuffer {
        let want = pieceSize
        return try await Self.io {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw Self.failure("open", path) }
            defer { close(fd) }
            var buffer = ByteBufferAllocator().buffer(capacity: want)
            _ = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: want) { raw in
                var total = 0
                while total < want {
                    let count = pread(fd, raw.baseAddress! + total, want - total, off_t(offset) + off_t(total))
                    if count < 0, errno == EINTR { continue }
                    guard count >= 0 else { throw Self.failure("pread", path) }
                    if count == 0 { break }
                    total += count
                }
                return total
            }
            return buffer
        }
    }

    /// Runs blocking file work on the I/O thread pool, never on an event loop.
    static func io<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await ioPool.runIfActive(work)
    }

    /// The threads the files are written, synced and read on: 16, of their own. Their work is mostly
    /// waiting for the disk (an `fsync`), so more uploads sync at once than there are cores; on the
    /// shared pool (one thread per core, which SQLite's calls also use) eight uploads synced two at a time.
    static let ioThreads = 16

    private static let ioPool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: ioThreads)
        pool.start()
        return pool
    }()

    static func size(of path: String) -> Int64? {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : nil
    }

    /// Makes a new name in `path`'s folder durable.
    static func syncFolder(of path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open", folder) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw failure("fsync", folder) }
    }

    static func failure(_ call: String, _ path: String) -> BlobStoreError {
        BlobStoreError(message: "The blob store could not \(call) \(path): \(String(cString: strerror(errno))).")
    }
}
