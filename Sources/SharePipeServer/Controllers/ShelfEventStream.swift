import Foundation
import HTTPTypes
import Hummingbird
import ServiceLifecycle
import SharePipeProtocol

/// A user's shelf changes as Server-Sent Events, for as long as the client listens: what
/// `GET /v1/highlights/events` sends an app, and `GET /events` the web page. Each event is
/// `highlightsDidChange` with the link ids `added`, `removed` and `updated` since the previous one
/// (``HighlightEventBatch``), and an `id` to resume from.
struct ShelfEventStream {
    let storage: any Storage
    /// How long a stream goes without reading the events when no notification came
    /// (``ServerConfiguration/shelfEventRecheckInterval``).
    let recheckInterval: Duration
    /// How long the stream stays silent before a comment line. It keeps proxies from closing the
    /// stream, and finds a client that went away (the write fails), which gives its place back:
    /// a user has at most ``maxStreamsPerUser``.
    var keepAliveInterval: Duration = .seconds(15)

    /// Live-change streams one user may have open on one server process: 8 (a phone, a tablet, a few
    /// browser tabs). Past it the stream is refused with 429 and `Retry-After`.
    static let maxStreamsPerUser = 8

    /// The stream of `user`'s changes after event `resumeFrom` (from now when nil); `head` answers
    /// the head alone. `stillSignsIn` is asked after every read, before anything read is sent: once
    /// false, the stream ends.
    func response(
        userID user: UUID,
        resumingAfter resumeFrom: Int64?,
        head: Bool,
        stillSignsIn: @escaping @Sendable () async throws -> Bool
    ) async throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-store"
        headers[HTTPField.Name("X-Accel-Buffering")!] = "no"
        // HEAD: the stream's head alone, without subscribing (no body would ever unsubscribe).
        if head { return Response(status: .ok, headers: headers) }
        let start = resumeFrom
        let changes = storage.shelfChanges
        // Each stream reads the database every few seconds: a user's streams are counted (one
        // process's, checked here, so a burst opened at once may pass it by a few).
        guard changes.subscriptions(of: user) < Self.maxStreamsPerUser else {
            throw ProblemDetails.rateLimited(retryAfter: Int(keepAliveInterval.components.seconds))
        }
        let bounds = try await storage.shelfEventBounds(userID: user)
        return Response(
            status: .ok,
            headers: headers,
            body: ResponseBody { writer in
                // Subscribed here, where the unsubscribe is sure to follow: before the body runs,
                // a failed read or a client gone while the head was written left it for good.
                // A change made before this is read anyway, from the events after `start`.
                let subscription = changes.subscribe(user)
                defer { changes.unsubscribe(user, id: subscription.id) }
                let resume = HighlightEventBatch.resumePoint(after: start, kept: bounds)
                var position = resume.position
                try await writer.write(ByteBuffer(string: "retry: 3000\n\n"))
                if resume.reset {
                    try await writer.write(
                        ByteBuffer(
                            string: HighlightEventBatch(events: [], reset: true).serverSentEvent(id: position)
                        )
                    )
                }
                var quiet = Duration.zero
                while !Task.isCancelled && !Task.isShuttingDownGracefully {
                    let events = try await storage.shelfEvents(userID: user, after: position, limit: 500)
                    // The token is checked again after every read and before anything read is sent:
                    // a device revoked (or an account deleted) while its stream is open receives
                    // nothing that happened after, and its stream ends within the recheck interval.
                    guard try await stillSignsIn() else { break }
                    if let last = events.last {
                        position = last.sequence
                        try await writer.write(
                            ByteBuffer(string: HighlightEventBatch(events: events).serverSentEvent(id: position))
                        )
                        quiet = .zero
                        continue
                    }
                    // Short waits, so a shutdown ends the stream within a second. Without a
                    // notification the events are read again anyway: a notification sent
                    // before this server's listener was listening (or while it reconnected) is
                    // lost, and the change must still arrive.
                    var unread = Duration.zero
                    while !(await subscription.signal.wait(upTo: .seconds(1))) {
                        if Task.isCancelled || Task.isShuttingDownGracefully { break }
                        quiet += .seconds(1)
                        unread += .seconds(1)
                        if quiet >= keepAliveInterval {
                            try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                            quiet = .zero
                        }
                        if unread >= recheckInterval { break }
                    }
                }
                try await writer.finish(nil)
            }
        )
    }
}
