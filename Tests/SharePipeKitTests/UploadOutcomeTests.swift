import Foundation
import LinkPreviewCore
import SharePipeKit
import SharePipeProtocol
import Testing

struct UploadOutcomeTests {
    static func classify(_ status: Int, _ headers: [String: String] = [:], _ body: String = "") -> UploadOutcome {
        UploadOutcome.classify(
            status: status,
            header: { name in headers.first { $0.key.lowercased() == name.lowercased() }?.value },
            body: Data(body.utf8)
        )
    }

    static let created = #"{"share":{"id":"6F9619FF-8B86-D011-B42D-00C04FC964FF"},"link":{}}"#
    static let problem = ["Content-Type": "application/problem+json"]

    @Test("201 is uploaded; the server's replay (Idempotent-Replayed: true) is a replay of the same share")
    func acknowledged() {
        let id = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")
        #expect(Self.classify(201, [:], Self.created) == .uploaded(shareID: id))
        #expect(Self.classify(201, ["idempotent-replayed": "true"], Self.created) == .replayed(shareID: id))
    }

    @Test("The server's own ShareCreated answer is a delivery of the share it names")
    func serversAnswerIsADelivery() throws {
        let share = Share(
            id: UUID(),
            userID: UUID(),
            linkID: UUID(),
            url: URL(string: "https://example.com/a")!,
            createdAt: Date(timeIntervalSince1970: 1_700_000_000)
        )
        let link = Link(id: share.linkID, url: try #require(share.url), createdAt: share.createdAt)
        let body = String(decoding: try APIJSON.encoder().encode(ShareCreated(share: share, link: link)), as: UTF8.self)
        #expect(Self.classify(201, ["Content-Type": "application/json"], body) == .uploaded(shareID: share.id))
    }

    /// A Wi-Fi portal's page, an empty answer, a proxy's redirect: none recorded the share, so taking
    /// one for a delivery would remove the item from the inbox and lose it.
    @Test("Only a 201 naming the recorded share is a delivery; other 2xx and 3xx keep the item")
    func onlyARecordedShareIsADelivery() {
        #expect(Self.classify(200, [:], "<html><title>Sign in to Hotel Wi-Fi</title></html>").kind == .transient)
        #expect(Self.classify(200, [:], Self.created).kind == .transient)
        #expect(Self.classify(201, [:], "").kind == .transient)
        #expect(Self.classify(201, [:], #"{"share":{}}"#).kind == .transient)
        #expect(Self.classify(204).kind == .transient)
        guard case .transient(let reason, _) = Self.classify(302, ["Location": "https://portal.example/login"]) else {
            Issue.record("a redirect must not be a delivery")
            return
        }
        #expect(reason.contains("https://portal.example/login"))
    }

    @Test("A validation failure keeps the server's words for the user")
    func rejectedKeepsDetail() {
        let problem =
            #"{"type":"https://sharepipe.dev/problems/validation-failed","title":"t","status":422,"#
            + #""detail":"1 field is invalid.","errors":[{"pointer":"/note","detail":"At most 2000 characters."}]}"#
        #expect(
            Self.classify(422, Self.problem, problem)
                == .rejected(status: 422, message: "1 field is invalid. /note: At most 2000 characters.")
        )
        #expect(Self.classify(413, ["Content-Type": "Application/Problem+JSON; charset=utf-8"], "{}").kind == .rejected)
    }

    /// A refusal is printed by `share` and again by every `inbox list`: an escape sequence in it set the
    /// terminal's title or cleared the screen each time.
    @Test("The server's words are kept as one line of plain text, without control characters")
    func serverWordsArePlainText() {
        let hostile =
            #"{"status":422,"detail":"Bad\u001b]0;pwned\u0007 link\u001b[2J.\nTry\tagain\u0085.","#
            + #""errors":[{"pointer":"/url","detail":"\u009b31mred"}]}"#
        #expect(
            Self.classify(422, Self.problem, hostile)
                == .rejected(status: 422, message: "Bad]0;pwned link[2J. Try again. /url: 31mred")
        )
        let long = #"{"status":422,"detail":""# + String(repeating: "é", count: 5_000) + #""}"#
        guard case .rejected(_, let message) = Self.classify(422, Self.problem, long) else {
            Issue.record("a problem must be a refusal")
            return
        }
        #expect(message.count == 2_000)
        // A redirect's Location is the server's words too, kept in the item's last error.
        guard case .transient(let reason, _) = Self.classify(302, ["Location": "https://x.example/\u{1b}[2J\u{9b}0m"])
        else {
            Issue.record("a redirect must not be a delivery")
            return
        }
        #expect(reason.contains("https://x.example/[2J0m") && !reason.unicodeScalars.contains { $0.value < 0x20 })
    }

    @Test("401 and 403 mean sign in again; 409 in flight, 429, 5xx are transient with the server's Retry-After")
    func unauthorizedAndTransient() {
        #expect(
            Self.classify(401, Self.problem, #"{"detail":"This device was signed out."}"#)
                == .unauthorized(status: 401, message: "This device was signed out.")
        )
        #expect(Self.classify(403, Self.problem).kind == .unauthorized)
        #expect(Self.classify(409).kind == .transient)
        #expect(
            Self.classify(429, ["Retry-After": "7"])
                == .transient(reason: "HTTP 429: try again later", retryAfter: .seconds(7))
        )
        #expect(Self.classify(503).kind == .transient)
        #expect(Self.classify(500).isAcknowledged == false)
    }

    /// A 429 `allowance-used-up` is about the one share (it starts a group past the day's 100); any
    /// other 429 is about the device or the server, and means wait.
    @Test("A 429 for the day's groups postpones that share alone; another 429 is transient")
    func allowanceUsedUpIsPostponed() {
        let body = #"{"type":"https://sharepipe.dev/problems/allowance-used-up","detail":"100 groups a day."}"#
        let headers = Self.problem.merging(["Retry-After": "3600"]) { $1 }
        #expect(
            Self.classify(429, headers, body)
                == .postponed(reason: "HTTP 429: 100 groups a day.", retryAfter: .seconds(3600))
        )
        #expect(Self.classify(429, Self.problem, body).retryLater?.retryAfter == .seconds(60))
        let limited = #"{"type":"https://sharepipe.dev/problems/rate-limited","detail":"Slow down."}"#
        #expect(Self.classify(429, headers, limited).kind == .transient)
        #expect(Self.classify(429, ["Content-Type": "application/json"], body).kind == .transient, "not a problem")
    }

    /// A proxy's 407, a load balancer's 400, a firewall's 403, a deploy's 404: not the server's word
    /// on the share, which must neither be parked for good nor sign the user out.
    @Test("A 4xx that is not a problem comes from something other than SharePipe: the item is tried again")
    func foreignRefusalsAreTransient() {
        for status in [400, 401, 403, 404, 407, 410, 413, 422] {
            let outcome = Self.classify(status, ["Content-Type": "text/html"], "<html><h1>Forbidden</h1></html>")
            #expect(outcome.kind == .transient, "\(status): \(outcome)")
        }
        #expect(Self.classify(403).kind == .transient)
    }

    @Test("The upload body carries what the server's ShareSubmission takes")
    func submissionBody() throws {
        let item = ShareItem(url: URL(string: "https://example.com/a")!, note: "hi", recipients: ["@bob"])
        let json = String(decoding: try item.submissionBody(), as: UTF8.self)
        #expect(json == #"{"note":"hi","recipients":["@bob"],"url":"https://example.com/a"}"#)
    }

    /// The server takes a link or text with a link, not both: words shared beside a link (a title, a
    /// comment) go with it as the note, after the sharer's own.
    @Test("A link shared with words beside it sends them as the note; words that only repeat the link are dropped")
    func linkWithText() throws {
        let link = URL(string: "https://example.com/a")!
        var item = ShareItem(url: link, text: "Worth reading", note: "for Bob")
        #expect(
            String(decoding: try item.submissionBody(), as: UTF8.self)
                == #"{"note":"for Bob\n\nWorth reading","url":"https://example.com/a"}"#
        )
        #expect(item.deliveryProblem == nil)
        item = ShareItem(url: link, text: "https://example.com/a")
        #expect(String(decoding: try item.submissionBody(), as: UTF8.self) == #"{"url":"https://example.com/a"}"#)
        item = ShareItem(text: "see https://example.com/b")
        #expect(String(decoding: try item.submissionBody(), as: UTF8.self) == #"{"text":"see https://example.com/b"}"#)
    }

    @Test("Retry-After is read as seconds or as an HTTP date; a date past means at once")
    func retryAfterForms() {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(UploadOutcome.retryAfterDelay("120", now: now) == .seconds(120))
        #expect(UploadOutcome.retryAfterDelay("Sun, 06 Nov 1994 08:51:37 GMT", now: now) == .seconds(120))
        #expect(UploadOutcome.retryAfterDelay("Sun, 06 Nov 1994 08:00:00 GMT", now: now) == .seconds(0))
        #expect(UploadOutcome.retryAfterDelay("soon", now: now) == nil)
        let classified = Self.classify(503, ["Retry-After": "Wed, 01 Jan 2098 00:00:00 GMT"])
        guard case .transient(_, let wait?) = classified else {
            Issue.record("503 with a date: \(classified)")
            return
        }
        #expect(wait > .seconds(86_400))
    }

    /// A long selection beside a link, or an app's overlong title, cost the whole share at save time.
    @Test("What the sharing app supplied is fitted to the server's limits; the sharer's own note is not")
    func suppliedDetailsAreFitted() throws {
        let link = URL(string: "https://example.com/a")!
        var item = ShareItem(
            url: link,
            text: String(repeating: "s", count: 1_500),
            note: String(repeating: "n", count: 600)
        )
        var provided = LinkMetadata(title: String(repeating: "t", count: 400))
        provided.summary = String(repeating: "u", count: 1_200)
        item.provided = provided
        #expect(item.deliveryProblem == nil)
        let body = try #require(try JSONSerialization.jsonObject(with: item.submissionBody()) as? [String: Any])
        let note = try #require(body["note"] as? String)
        #expect(note.count == 2_000 && note.hasPrefix(String(repeating: "n", count: 600)) && note.hasSuffix("…"))
        let fields = try #require(body["provided"] as? [String: Any])
        #expect((fields["title"] as? String)?.count == 300)
        #expect((fields["summary"] as? String)?.count == 1_000)
        // The sharer's own words are never cut: too long, the share is refused with the reason.
        #expect(ShareItem(url: link, note: String(repeating: "n", count: 2_001)).deliveryProblem != nil)
        // Nor when the words beside the link leave no room: those are left out, or cut, instead.
        for (ownLength, expected) in [(2_000, 2_000), (1_999, 1_999), (1_996, 2_000)] {
            let own = String(repeating: "n", count: ownLength)
            let full = ShareItem(url: link, text: "more words", note: own)
            let sent = try #require(try JSONSerialization.jsonObject(with: full.submissionBody()) as? [String: Any])
            let note = try #require(sent["note"] as? String)
            #expect(note.hasPrefix(own) && note.count == expected, "\(ownLength)")
            #expect(ownLength < 1_996 || note == own || note == own + "\n\nm…", "\(ownLength)")
            #expect(full.deliveryProblem == nil, "\(ownLength)")
        }
    }

    /// Photos from a share sheet come with no link: the inbox takes them, up to the server's limit
    /// on files per share, and refuses a share of nothing.
    @Test func filesAloneAreDeliverable() {
        let photos = ShareItem(note: "the beach")
        #expect(photos.deliveryProblem(fileCount: 1) == nil)
        #expect(photos.deliveryProblem(fileCount: 10) == nil)
        #expect(photos.deliveryProblem(fileCount: 11)?.contains("at most 10") == true)
        #expect(photos.deliveryProblem(fileCount: 0)?.contains("`attachments`") == true)
    }

}
