public import Foundation

/// What the inbox knows about an item's delivery so far: attempts, when to try again, and the
/// server's last word. Kept in its own small file beside the record (the record is never rewritten).
public struct DeliveryState: Sendable, Hashable, Codable {
    /// How many times delivery was tried and did not succeed.
    public var attempts: Int
    /// Not to be claimed before this time (backoff), if set.
    public var notBefore: Date?
    /// The last failure, for logs and the app's list.
    public var lastError: String?
    /// The server refused the item (a validation failure) with this message for the user. A rejected
    /// item is not retried; the app shows the message and lets the user discard the item.
    public var rejection: String?
    /// How many bytes of each of the item's attachments (by index) the server had stored at its last
    /// answer (``ShareInbox/recordProgress(_:)``), for the app's list; nil before any answer. The
    /// server may have more by now, never less.
    public var uploaded: [Int64]?

    /// The most attempts a state counts: a state file is read from disk, and a count near `Int.max`
    /// in one would trap at the next `+ 1`, crashing every drain.
    public static let maxAttempts = 1 << 20

    /// Creates a state; defaults to no attempt yet. `attempts` is held to 0…``maxAttempts``.
    public init(
        attempts: Int = 0,
        notBefore: Date? = nil,
        lastError: String? = nil,
        rejection: String? = nil,
        uploaded: [Int64]? = nil
    ) {
        self.attempts = min(max(attempts, 0), Self.maxAttempts)
        self.notBefore = notBefore
        self.lastError = lastError
        self.rejection = rejection
        self.uploaded = uploaded
    }

    enum CodingKeys: String, CodingKey {
        case attempts, notBefore, lastError, rejection, uploaded
    }

    /// Decodes a state file, its count held to 0…``maxAttempts``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            attempts: try container.decodeIfPresent(Int.self, forKey: .attempts) ?? 0,
            notBefore: try container.decodeIfPresent(Date.self, forKey: .notBefore),
            lastError: try container.decodeIfPresent(String.self, forKey: .lastError),
            rejection: try container.decodeIfPresent(String.self, forKey: .rejection),
            uploaded: try container.decodeIfPresent([Int64].self, forKey: .uploaded)
        )
    }

    /// Whether the item may be claimed at `now`: not rejected, and its backoff over (``dueDate(at:longestWait:)``).
    /// - Parameters:
    ///   - now: The time to judge at.
    ///   - longestWait: The longest backoff the inbox writes (its ``RetryPolicy/maxDelay``); default 1 hour.
    public func isClaimable(at now: Date, longestWait: Duration = .seconds(3600)) -> Bool {
        rejection == nil && (dueDate(at: now, longestWait: longestWait).map { $0 <= now } ?? true)
    }

    /// When the item's backoff ends, judged at `now`: ``notBefore``, unless that lies further ahead
    /// than any backoff the inbox writes (`longestWait`), which only a clock that was set ahead when
    /// the backoff was written can cause; such an item is due `now` rather than parked for as long as
    /// the clock was wrong. `nil` when the item has no backoff.
    public func dueDate(at now: Date, longestWait: Duration = .seconds(3600)) -> Date? {
        guard let notBefore else { return nil }
        return notBefore > now.addingTimeInterval(longestWait.timeInterval) ? now : notBefore
    }
}

/// How long to wait before trying an item again: exponential backoff from `initialDelay`, doubling
/// per attempt, capped at `maxDelay`.
public struct RetryPolicy: Sendable, Hashable {
    /// The wait after the first failed attempt. Default 5 seconds.
    public var initialDelay: Duration
    /// The longest wait. Default 1 hour.
    public var maxDelay: Duration

    /// Creates a policy; every default is stated on its property.
    public init(initialDelay: Duration = .seconds(5), maxDelay: Duration = .seconds(3600)) {
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
    }

    /// The wait after `attempts` failed attempts (1 → `initialDelay`, 2 → twice that, …).
    public func delay(afterAttempts attempts: Int) -> Duration {
        guard attempts > 0 else { return .zero }
        let doublings = min(attempts - 1, 40)
        let delay = initialDelay * (1 << doublings)
        return min(delay, maxDelay)
    }

    /// The wait after `attempts` failed attempts when the server asked for `retryAfter`: at least
    /// the backoff (a `Retry-After: 0`, or a date already past, would have a watcher send again at
    /// once, again and again), at most `maxDelay` (no answer parks an item for years).
    func wait(afterAttempts attempts: Int, retryAfter: Duration?) -> Duration {
        let backoff = delay(afterAttempts: attempts)
        return min(max(retryAfter ?? backoff, backoff), maxDelay)
    }
}

/// A claimed item's lease, as written in `leases/<id>.json`: one line,
/// `<owner> <pid> <expiry in ms> [<process start time>]` (plain text: it is written and read on every
/// claim). The start time (Linux: `/proc/<pid>/stat`) tells a live holder from an unrelated process
/// that was given the pid of a dead one.
struct Lease {
    var owner: UUID
    var pid: Int32
    var expiresAt: Date
    var processStart: UInt64?

    /// The longest a lease holds, whatever it says: a lease written while the clock was set ahead
    /// holds no longer than this after the clock is right again.
    static let longest: TimeInterval = 3600

    /// Whether the lease still holds at `now`: not expired (nor further ahead than ``longest``), and
    /// its process still exists.
    func holds(at now: Date) -> Bool {
        guard expiresAt > now, expiresAt <= now.addingTimeInterval(Self.longest), POSIXFile.processExists(pid) else {
            return false
        }
        guard let processStart, let current = POSIXFile.processStartTime(pid) else { return true }
        return current == processStart
    }

    var encoded: Data {
        let milliseconds = Int64((expiresAt.timeIntervalSince1970 * 1000).rounded())
        let start = processStart.map { " \($0)" } ?? ""
        return Data("\(owner.uuidString) \(pid) \(milliseconds)\(start)\n".utf8)
    }

    /// A lease from its line; `nil` for anything else (an unreadable lease does not hold).
    init?(_ data: Data) {
        let fields = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: " ")
        guard (3...4).contains(fields.count), let owner = UUID(uuidString: String(fields[0])),
            let pid = Int32(fields[1]), let milliseconds = Int64(fields[2])
        else { return nil }
        self.init(
            owner: owner,
            pid: pid,
            expiresAt: Date(timeIntervalSince1970: Double(milliseconds) / 1000),
            processStart: fields.count == 4 ? UInt64(fields[3]) : nil
        )
    }

    init(owner: UUID, pid: Int32, expiresAt: Date, processStart: UInt64?) {
        self.owner = owner
        self.pid = pid
        self.expiresAt = expiresAt
        self.processStart = processStart
    }
}
