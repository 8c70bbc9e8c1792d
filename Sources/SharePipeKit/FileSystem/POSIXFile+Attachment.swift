import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Attachment files the user shares, copied into the inbox in pieces: never read whole into memory,
/// so a share extension (about 120 MB on iOS) or `sharepipe share --attach` can be handed any file and
/// refuse one over the limit without loading it.
extension POSIXFile {
    /// How many bytes one read of a copy takes.
    static let copyChunkBytes = 64 * 1024

    /// The size of the file to attach at `path`: a regular file, or a symbolic link to one (the user
    /// named it). Anything else throws ``ShareInboxError/Code/invalid`` saying what to share instead.
    static func attachmentSize(_ path: String) throws -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { throw unreadableAttachment(path, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw notAFile(path) }
        return Int(info.st_size)
    }

    /// Copies the file at `source` into a new file at `path` (created as ``createWriting(_:sync:mode:_:)``
    /// creates one), a piece at a time, synced when `sync`. The copy must come to `expectedBytes`, the
    /// size checked against the limits: a file that grew or shrank since is refused, not stored cut
    /// short or past a limit. A copy that fails leaves no file at `path`.
    static func copy(_ source: String, to path: String, expectedBytes: Int, sync: Bool) throws {
        let input = open(source, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard input >= 0 else { throw unreadableAttachment(source, errno: errno) }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0 else { throw unreadableAttachment(source, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw notAFile(source) }

        try createWriting(path, sync: sync) { output in
            var buffer = [UInt8](repeating: 0, count: copyChunkBytes)
            var total = 0
            while true {
                let count = buffer.withUnsafeMutableBytes { Glue.read(input, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw unreadableAttachment(source, errno: errno)
                }
                if count == 0 { break }
                total += count
                guard total <= expectedBytes else { throw changed(source, expectedBytes) }
                try buffer.withUnsafeBytes {
                    try writeAll(UnsafeRawBufferPointer(rebasing: $0[..<count]), to: output, path: path)
                }
            }
            guard total == expectedBytes else { throw changed(source, expectedBytes) }
        }
    }

    private static func unreadableAttachment(_ path: String, errno code: Int32) -> ShareInboxError {
        ShareInboxError(
            code: .invalid,
            message: "Cannot read the attachment \(path): \(String(cString: strerror(code))). Check that the file "
                + "exists and is readable.",
            underlying: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        )
    }

    private static func notAFile(_ path: String) -> ShareInboxError {
        ShareInboxError(
            code: .invalid,
            message: "The attachment \(path) is not a regular file (a folder, a pipe or a device); share a file."
        )
    }

    private static func changed(_ path: String, _ expectedBytes: Int) -> ShareInboxError {
        ShareInboxError(
            code: .invalid,
            message: "The attachment \(path) changed while it was being saved (it held \(expectedBytes) bytes "
                + "when its size was checked). Share it again once it is written."
        )
    }
}
