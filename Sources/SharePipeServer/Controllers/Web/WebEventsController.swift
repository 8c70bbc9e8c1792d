import Foundation
import HTTPTypes
import Hummingbird
import SharePipeProtocol

/// `GET /events`: the signed-in browser's shelf changes as Server-Sent Events (the same stream as
/// `GET /v1/highlights/events`, signed in by the session cookie), which `sharepipe.js` follows to
/// bring the page up to date without a reload. It ends when the session does.
struct WebEventsController {
    let site: WebSite
    let recheckInterval: Duration

    /// The web stream's comment line interval (an app's is 15 s).
    static let keepAliveInterval = Duration.seconds(3)

    func addRoutes(to group: some RouterMethods<ServerRequestContext>) {
        group.get("events", use: stream)
    }

    @Sendable func stream(_ request: Request, context: ServerRequestContext) async throws -> Response {
        guard let user = try await site.user(request) else {
            var problem = ProblemDetails.tokenMissing
            problem.detail = "Sign in on the web page first."
            throw problem
        }
        // The page names the event it was made at (`lastEventId`); the browser's own reconnect
        // sends `Last-Event-ID`, which wins.
        let header = try HighlightEventsController.eventID(request.headers[HTTPField.Name("Last-Event-ID")!], at: "Last-Event-ID")
        let query = try HighlightEventsController.eventID(
            request.uri.queryParameters["lastEventId"].map(String.init),
            at: "lastEventId"
        )
        let resume = header ?? query
        // A browser leaves a page's stream behind at every navigation, unnoticed until a write
        // fails: written to every 3 s, a left stream is gone within that.
        var stream = ShelfEventStream(storage: site.storage, recheckInterval: recheckInterval)
        stream.keepAliveInterval = Self.keepAliveInterval
        return try await stream.response(
            userID: user.id,
            resumingAfter: resume,
            head: request.method == .head
        ) {
            // Signed out (or the session ended) meanwhile: the stream ends. A failure to read is no
            // answer, and the stream goes on.
            do { return try await site.user(request)?.id == user.id } catch { return true }
        }
    }
}
