import Foundation
import HTTPTypes
import Hummingbird
import ServiceLifecycle
import SharePipeProtocol

/// `GET /v1/highlights/events`: the shelf's live changes, for as long as the client listens. App tokens.
struct HighlightEventsController {
    let storage: any Storage
    /// Checks the stream's token again while it runs.
    let authenticator: TokenAuthenticator
    /// How long a stream goes without reading the events when no notification came
    /// (``ServerConfiguration/shelfEventRecheckInterval``).
    let recheckInterval: Duration

    func addRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.get(use: stream)
    }

    /// `GET /v1/highlights/events`: the shelf's live changes as Server-Sent Events (the
    /// `SWHighlightCenterDelegate` analog). Each event is `highlightsDidChange` with the link ids
    /// `added`, `removed` and `updated` since the previous one, and an `id` to resume from: a client
    /// that reconnects with `Last-Event-ID` gets every change it missed (changes are kept 7 days;
    /// past that, or with an id its stream never sent, it gets one event with `"reset": true` and
    /// should reload the shelf). A comment line
    /// every 15 s keeps proxies from closing the stream; the stream ends when the server shuts down,
    /// and when its token no longer signs in (checked before every batch and every recheck).
    /// Changes arrive at once through the database's notifications, and at most
    /// ``ServerConfiguration/shelfEventRecheckInterval`` (5 s) late when a notification was lost.
    @Sendable func stream(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let user = principal.user.id
        // Both are checked when both are sent (a query the header overrides must still be an id);
        // the header wins.
        let header = try Self.eventID(request.headers[HTTPField.Name("Last-Event-ID")!], at: "Last-Event-ID")
        let query = try Self.eventID(request.uri.queryParameters["lastEventId"].map(String.init), at: "lastEventId")
        let resumeFrom = header ?? query
        return try await ShelfEventStream(storage: storage, recheckInterval: recheckInterval).response(
            userID: user,
            resumingAfter: resumeFrom,
            head: request.method == .head
        ) { try await stillSignsIn(request) }
    }

    /// Whether a stream's token still signs in: false once it is unknown, revoked or expired. Any
    /// other failure (the database unreachable for a moment) is not an answer, and the stream goes on.
    private func stillSignsIn(_ request: Request) async throws -> Bool {
        do {
            _ = try await authenticator.principal(of: request)
            return true
        } catch let problem as ProblemDetails where problem.status == 401 || problem.status == 403 {
            return false
        } catch {
            return true
        }
    }
}

/// The data of one `highlightsDidChange` event: each link once, by what happened to it over the
/// batch (added then changed is `added`; anything then removed is `removed`).
struct HighlightEventBatch: Encodable {
    var added: [UUID] = []
    var removed: [UUID] = []
    var updated: [UUID] = []
    var reset = false

    init(events: [ShelfEvent], reset: Bool = false) {
        self.reset = reset
        var first: [UUID: ShelfChange] = [:]
        var last: [UUID: ShelfChange] = [:]
        var order: [UUID] = []
        for event in events {
            if first[event.linkID] == nil {
                first[event.linkID] = event.change
                order.append(event.linkID)
            }
            last[event.linkID] = event.change
        }
        for link in order {
            if last[link] == .removed {
                removed.append(link)
            } else if first[link] == .added {
                added.append(link)
            } else {
                updated.append(link)
            }
        }
    }

    /// Where a stream that resumes after event `start` begins: right after it when every change
    /// since is still kept, else at the latest change with a reset, when some were pruned or `start`
    /// is not an id this user's stream sent (above the latest, as after a database restore).
    static func resumePoint(
        after start: Int64?,
        kept bounds: (oldest: Int64, latest: Int64)
    ) -> (
        position: Int64, reset: Bool
    ) {
        guard let start else { return (bounds.latest, false) }
        if start < bounds.oldest - 1 || start > bounds.latest { return (bounds.latest, true) }
        return (start, false)
    }

    func serverSentEvent(id: Int64) -> String {
        let data = (try? APIJSON.encode(self)) ?? "{}"
        return "id: \(id)\nevent: highlightsDidChange\ndata: \(data)\n\n"
    }
}

extension HighlightEventsController {
    /// An event id as a client sends it back (`Last-Event-ID`, `lastEventId`): digits only, as the
    /// stream writes them; nil when not sent, 422 at `pointer` for anything else, empty included.
    static func eventID(_ text: String?, at pointer: String) throws -> Int64? {
        guard let text else { return nil }
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int64(text) else {
            throw ProblemDetails.validationFailed([
                .init(pointer: pointer, detail: "The id of an event this stream sent.")
            ])
        }
        return value
    }
}
