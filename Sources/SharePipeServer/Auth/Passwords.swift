import Foundation
import HummingbirdBcrypt
import NIOPosix
import SharePipeProtocol
import Synchronization

/// Passwords are hashed with bcrypt (cost 12), on a thread pool of their own (half the cores, at
/// least one) so that a slow hash (about a quarter of a second) never stalls an event loop, nor the
/// SQLite statements that run on NIO's shared blocking pool. At most ``maxWaiting`` hashes wait or
/// run at once; past that a sign-in or sign-up is 503 with `Retry-After` rather than queued behind a
/// flood of them.
public enum Passwords {
    /// Hashes waiting or running at once, at most.
    public static let maxWaiting = 32

    private static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: max(1, ProcessInfo.processInfo.activeProcessorCount / 2))
        pool.start()
        return pool
    }()
    private static let waiting = Atomic<Int>(0)

    /// Runs `work` on the passwords' pool, or refuses with 503 when ``maxWaiting`` are already there.
    private static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
        guard waiting.wrappingAdd(1, ordering: .relaxed).newValue <= maxWaiting else {
            waiting.wrappingSubtract(1, ordering: .relaxed)
            throw ProblemDetails.unavailable(retryAfter: 1)
        }
        defer { waiting.wrappingSubtract(1, ordering: .relaxed) }
        return try await pool.runIfActive(work)
    }

    /// The bcrypt cost: 2^12 rounds.
    public static let cost: UInt8 = 12
    /// Accepted lengths in UTF-8 bytes. bcrypt reads at most 72 bytes, so longer passwords are
    /// refused rather than silently cut.
    public static let lengthInBytes = 8...72

    /// Why `password` is not acceptable, or nil when it is. A NUL character is refused too: bcrypt
    /// reads the password as C text and would stop at it, so `"secret\0anything"` would match
    /// `"secret"`, and eight NULs the empty password.
    public static func problem(with password: String) -> String? {
        if password.utf8.contains(0) { return "A password cannot contain the NUL character." }
        return lengthInBytes.contains(password.utf8.count)
            ? nil
            : "Use \(lengthInBytes.lowerBound)–\(lengthInBytes.upperBound) bytes for the password."
    }

    /// The bcrypt hash of `password`, computed off the event loops.
    public static func hash(_ password: String) async throws -> String {
        try await run { Bcrypt.hash(password, cost: cost) }
    }

    /// Whether `password` matches `hash`. Without a hash (an unknown handle, an account without a
    /// password) a dummy hash is checked instead, so the answer takes as long and says nothing
    /// about which handles exist. A password that could not have been set (see ``problem(with:)``)
    /// never matches: bcrypt stops at a NUL, so a hash made from NULs before they were refused
    /// would otherwise match the empty password.
    static func verify(_ password: String, against hash: String?) async throws -> Bool {
        try await run {
            let matches = Bcrypt.verify(password, hash: hash ?? dummyHash)
            return matches && hash != nil && problem(with: password) == nil
        }
    }

    private static let dummyHash = Bcrypt.hash("sharepipe: no such account", cost: cost)
}
