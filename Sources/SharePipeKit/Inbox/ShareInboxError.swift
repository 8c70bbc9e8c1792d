import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why the inbox could not do what was asked. The message says what to do about it.
public struct ShareInboxError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure; compare with the `static let` values.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The inbox holds as many items or bytes as its ``ShareInboxLimits`` allow.
        public static let full = Code("full")
        /// One item (its record and attachments) is larger than the limits allow.
        public static let itemTooLarge = Code("itemTooLarge")
        /// An item with this id is already in the inbox.
        public static let duplicate = Code("duplicate")
        /// The item could never be delivered: it would not read back, or the server would refuse it
        /// (no link, text without a link, a field over the server's limits). Nothing was saved.
        public static let invalid = Code("invalid")
        /// No item with this id in the inbox.
        public static let notFound = Code("notFound")
        /// A file operation failed (disk full, permissions, a missing container).
        public static let io = Code("io")
        /// Something other than a file SharePipe wrote stands where one should be: a folder, a
        /// symbolic link, a named pipe, or a file over the size any of them has. An inbox record of
        /// that kind is quarantined.
        public static let unusableFile = Code("unusableFile")
        /// This user may not read the file now (permission denied): another user wrote it (a `sudo`),
        /// or, on Apple platforms, data protection locks it while the device is locked. An inbox
        /// record of that kind is left where it is and tried again later.
        public static let notPermitted = Code("notPermitted")
    }

    /// The kind of failure.
    public var code: Code
    /// What went wrong and what to do, for a person.
    public var message: String
    /// The error underneath, if any.
    public var underlying: (any Error & Sendable)?

    /// Creates an error.
    public init(code: Code, message: String, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    public var description: String { message }

    static func unusable(_ path: String, because reason: String) -> ShareInboxError {
        ShareInboxError(
            code: .unusableFile,
            message: "\(path) is not a file SharePipe wrote: \(reason). Move it out of the container folder."
        )
    }

    /// A file this user may not read now: another owner or mode (a `sudo`, a restore), or data
    /// protection while the device is locked.
    static func unreadable(_ path: String) -> ShareInboxError {
        ShareInboxError(
            code: .notPermitted,
            message: "\(path) cannot be read by this user (permission denied; was it written under sudo?). "
                + "Give it back to this user with chown, or move it out of the container folder."
        )
    }

    static func io(_ operation: String, path: String, errno code: Int32) -> ShareInboxError {
        let reason = String(cString: strerror(code))
        return ShareInboxError(
            code: .io,
            message: "Could not \(operation) \(path): \(reason). Check that the container folder exists, is "
                + "writable and has free space.",
            underlying: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        )
    }
}
