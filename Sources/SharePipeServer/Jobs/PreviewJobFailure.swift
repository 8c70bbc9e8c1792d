import Foundation
import LinkPreview

/// What ``PreviewWorker`` does with a job whose preview failed: the rules alone, apart from the
/// database and the clock, so each can be tested on its own.
///
/// - A cancelled job (the server stopping) taught nothing about the link or its host: it waits a
///   few seconds, its attempt not counted, for this or another server.
/// - A failure the fetcher replayed from memory (a retry inside a transient failure's negative-cache
///   time) was not a try: it waits until the memory ends, not counted, and not held against the host.
/// - A fetch failure counts: it is recorded against the host (unless the host answered), then
///   retried with backoff while it may pass and attempts remain, else the link fails with its message.
/// - Anything else (the database, most likely) is retried the same way, as boundedly.
struct PreviewJobFailure: Equatable, Sendable {
    enum Action: Equatable, Sendable {
        /// Put back until then, the attempt not counted.
        case postpone(until: Date)
        /// Counted; tried again then.
        case retry(at: Date)
        /// Counted, and the last: the link is marked failed (one with a preview keeps it).
        case fail
    }

    var action: Action
    /// The failure stored on the job or the link.
    var reason: String
    /// For the host's circuit breaker: whether the host still answered; nil when the failure says
    /// nothing about the host.
    var hostAnswered: Bool?
    /// The fetcher's error code, for `sharepipe_preview_fetches_total`; nil when nothing was fetched.
    var fetchResult: String?
    /// Whether the failure is not the fetcher's nor a cancellation (the database, most likely): worth
    /// an error in the log.
    var isInternal = false

    /// How long a cancelled job waits before it may run again.
    static let afterCancellation: TimeInterval = 5

    /// The decision after `error` on a job's attempt number `attempts` (this one included).
    ///
    /// - Parameter backoff: Seconds before the next attempt after `attempts` (``PreviewWorker/backoff(attempt:)``).
    init(
        after error: any Error,
        attempts: Int,
        maxAttempts: Int,
        now: Date,
        backoff: (Int) -> TimeInterval
    ) {
        let retryAt = now.addingTimeInterval(backoff(attempts))
        if error is CancellationError || (error as? LinkPreviewError)?.code == .cancelled {
            self.init(action: .postpone(until: now.addingTimeInterval(Self.afterCancellation)), reason: "")
            return
        }
        guard let error = error as? LinkPreviewError else {
            self.init(action: attempts < maxAttempts ? .retry(at: retryAt) : .fail, reason: "Internal error.")
            isInternal = true
            return
        }
        if let remembered = error.rememberedUntil, Self.isTransient(error) {
            self.init(action: .postpone(until: max(remembered, retryAt)), reason: error.message)
        } else {
            let retry = Self.isTransient(error) && attempts < maxAttempts
            self.init(
                action: retry ? .retry(at: retryAt) : .fail,
                reason: error.message,
                hostAnswered: Self.hostAnswered(error),
                fetchResult: error.code.rawValue
            )
        }
    }

    init(action: Action, reason: String, hostAnswered: Bool? = nil, fetchResult: String? = nil) {
        self.action = action
        self.reason = reason
        self.hostAnswered = hostAnswered
        self.fetchResult = fetchResult
    }

    /// Whether a failure still shows the host answering (a 404, a refused content type, a policy
    /// refusal), as opposed to the host being down or overloaded.
    static func hostAnswered(_ error: LinkPreviewError) -> Bool {
        switch error.code {
        case .dns, .dnsUnavailable, .connect, .tls, .timedOut, .stalled, .protocolError: false
        case .httpStatus: error.statusCode.map { $0 < 500 && $0 != 429 } ?? false
        default: true
        }
    }

    /// Failures worth another try later: the site may come back.
    static func isTransient(_ error: LinkPreviewError) -> Bool {
        switch error.category {
        case .fetchFailed, .timedOut: error.statusCode.map { $0 >= 500 || $0 == 429 } ?? true
        default: false
        }
    }
}
