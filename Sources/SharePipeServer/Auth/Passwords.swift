import HummingbirdBcrypt
import NIOPosix

/// Passwords are hashed with bcrypt (cost 12), on NIO's blocking thread pool so that a slow hash
/// (about a quarter of a second) never stalls an event loop.
public enum Passwords {
    /// The bcrypt cost: 2^12 rounds.
    public static let cost: UInt8 = 12
    /// Accepted lengths in UTF-8 bytes. bcrypt reads at most 72 bytes, so longer passwords are
    /// refused rather than silently cut.
    public static let lengthInBytes = 8...72

    /// Why `password` is not acceptable, or nil when it is.
    public static func problem(with password: String) -> String? {
        lengthInBytes.contains(password.utf8.count)
            ? nil
            : "Use \(lengthInBytes.lowerBound)–\(lengthInBytes.upperBound) bytes for the password."
    }

    /// The bcrypt hash of `password`, computed off the event loops.
    public static func hash(_ password: String) async throws -> String {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    /// Whether `password` matches `hash`. Without a hash (an unknown handle, an account without a
    /// password) a dummy hash is checked instead, so the answer takes as long and says nothing
    /// about which handles exist.
    static func verify(_ password: String, against hash: String?) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive {
            let matches = Bcrypt.verify(password, hash: hash ?? dummyHash)
            return matches && hash != nil
        }
    }

    private static let dummyHash = Bcrypt.hash("sharepipe: no such account", cost: cost)
}
