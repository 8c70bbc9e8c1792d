import Foundation
import LinkPreview
import Testing

@testable import SharePipeServer

@Suite("What a failed preview job leads to: postponed uncounted, retried, or failed")
struct PreviewJobFailureTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    /// A backoff without jitter: attempt × 10 s.
    static func backoff(_ attempt: Int) -> TimeInterval { TimeInterval(attempt * 10) }

    static func failure(_ error: any Error, attempts: Int = 1, maxAttempts: Int = 5) -> PreviewJobFailure {
        PreviewJobFailure(after: error, attempts: attempts, maxAttempts: maxAttempts, now: now, backoff: backoff)
    }

    static func error(
        _ code: LinkPreviewError.Code,
        status: Int? = nil,
        rememberedFor: TimeInterval? = nil
    )
        -> LinkPreviewError
    {
        var error = LinkPreviewError(code, "The message.", statusCode: status)
        error.rememberedUntil = rememberedFor.map { now.addingTimeInterval($0) }
        return error
    }

    @Test("A job cancelled as the server stops waits 5 s, uncounted, and tells nothing about the host")
    func cancelled() {
        for error: any Error in [Self.error(.cancelled), CancellationError()] {
            let failure = Self.failure(error, attempts: 5, maxAttempts: 5)
            #expect(failure.action == .postpone(until: Self.now.addingTimeInterval(5)), "\(error)")
            #expect(failure.hostAnswered == nil)
            #expect(failure.fetchResult == nil)
        }
    }

    @Test("A transient failure the fetcher replayed from memory waits for the memory to end, uncounted")
    func remembered() {
        // Remembered for 30 s; the backoff after attempt 1 is 10 s: the memory is the later.
        let long = Self.failure(Self.error(.dns, rememberedFor: 30))
        #expect(long.action == .postpone(until: Self.now.addingTimeInterval(30)))
        #expect(long.hostAnswered == nil, "one real request must not count twice against the host")
        #expect(long.fetchResult == nil)
        // Remembered for 2 s; the backoff after attempt 3 is 30 s: the job waits the backoff.
        let short = Self.failure(Self.error(.connect, rememberedFor: 2), attempts: 3)
        #expect(short.action == .postpone(until: Self.now.addingTimeInterval(30)))
        // Even at the last attempt nothing is counted: the link is not failed on a replay.
        let last = Self.failure(Self.error(.httpStatus, status: 503, rememberedFor: 30), attempts: 5)
        #expect(last.action == .postpone(until: Self.now.addingTimeInterval(50)))
    }

    @Test("A remembered failure that would not pass on a retry fails the link as a fresh one does")
    func rememberedForGood() {
        let failure = Self.failure(Self.error(.httpStatus, status: 404, rememberedFor: 600))
        #expect(failure.action == .fail)
        #expect(failure.reason == "The message.")
    }

    @Test(
        "A fetch failure counts: retried with backoff while it may pass and attempts remain",
        arguments: [
            // (code, status, attempts, retried, host answered)
            (LinkPreviewError.Code.connect, nil as Int?, 1, true, false),
            (.dns, nil, 4, true, false),
            (.timedOut, nil, 2, true, false),
            (.httpStatus, 503, 1, true, false),
            (.httpStatus, 429, 1, true, false),
            (.connect, nil, 5, false, false),  // the last attempt
            (.httpStatus, 404, 1, false, true),
            (.blockedAddress, nil, 1, false, true),
            (.unsupportedContent, nil, 1, false, true),
        ]
    )
    func counted(code: LinkPreviewError.Code, status: Int?, attempts: Int, retried: Bool, hostAnswered: Bool) {
        let failure = Self.failure(Self.error(code, status: status), attempts: attempts)
        let retryAt = Self.now.addingTimeInterval(Self.backoff(attempts))
        #expect(failure.action == (retried ? .retry(at: retryAt) : .fail))
        #expect(failure.hostAnswered == hostAnswered)
        #expect(failure.fetchResult == code.rawValue)
        #expect(failure.reason == "The message.")
    }

    struct DatabaseDown: Error {}

    @Test("Any other failure (the database) is retried as boundedly, then fails the link")
    func internalFailure() {
        let early = Self.failure(DatabaseDown(), attempts: 2)
        #expect(early.action == .retry(at: Self.now.addingTimeInterval(20)))
        #expect(early.reason == "Internal error.")
        #expect(early.hostAnswered == nil)
        #expect(early.fetchResult == nil)
        #expect(early.isInternal)
        #expect(Self.failure(DatabaseDown(), attempts: 5).action == .fail)
        #expect(!Self.failure(CancellationError()).isInternal && !Self.failure(Self.error(.dns)).isInternal)
    }
}
