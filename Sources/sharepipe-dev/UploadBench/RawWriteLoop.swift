import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The disk's own speed for the upload benchmark: the same bytes written to files in the same
/// folder by as many threads as there are uploads, each file in pieces of `piece` bytes with an
/// `fsync` after each (`syncEachPiece`, the durability the server gives every stored piece, so a
/// dropped upload resumes from it) or once at the end, then renamed into place with the folder
/// `fsync`ed, as the file blob store publishes a blob.
struct RawWriteLoop {
    let folder: URL
    let piece: Int
    let syncEachPiece: Bool

    /// Writes every payload once, each on a thread of its own, and returns when all are durable.
    func writeAll(_ payloads: [UploadBenchPayload]) throws {
        let failures = FailureBox()
        let group = DispatchGroup()
        for (index, payload) in payloads.enumerated() {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do { try writeOne(payload, named: "\(index)") } catch { failures.add(error) }
            }
        }
        group.wait()
        if let error = failures.first { throw error }
    }

    /// Removes what ``writeAll(_:)`` made (not timed).
    func clear() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    private func writeOne(_ payload: UploadBenchPayload, named name: String) throws {
        let temporary = folder.appendingPathComponent(name + ".part").path
        let final = folder.appendingPathComponent(name).path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw UploadBenchError("open \(temporary): errno \(errno)") }
        defer { close(descriptor) }
        try payload.bytes.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let end = min(offset + piece, bytes.count)
                var written = offset
                while written < end {
                    let count = write(descriptor, bytes.baseAddress! + written, end - written)
                    guard count > 0 else { throw UploadBenchError("write: errno \(errno)") }
                    written += count
                }
                if syncEachPiece || end == bytes.count {
                    guard fsync(descriptor) == 0 else { throw UploadBenchError("fsync: errno \(errno)") }
                }
                offset = end
            }
        }
        guard rename(temporary, final) == 0 else { throw UploadBenchError("rename: errno \(errno)") }
        let directory = open(folder.path, O_RDONLY)
        guard directory >= 0 else { throw UploadBenchError("open \(folder.path): errno \(errno)") }
        defer { close(directory) }
        guard fsync(directory) == 0 else { throw UploadBenchError("fsync folder: errno \(errno)") }
    }
}

/// The first error of several threads.
final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [any Error] = []
    func add(_ error: any Error) { lock.withLock { errors.append(error) } }
    var first: (any Error)? { lock.withLock { errors.first } }
}

/// Something the upload benchmark could not do, in words.
struct UploadBenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
