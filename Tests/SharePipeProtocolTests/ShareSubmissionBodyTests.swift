import Foundation
import SharePipeProtocol
import Testing

/// A client writes a ``ShareSubmission/Body``; the server reads the same members out of those bytes
/// (``ShareSubmission/decode(_:limits:)``) and fingerprints what they say, not how they were written.
struct ShareSubmissionBodyTests {
    static let body = ShareSubmission.Body(
        url: "https://example.com/a",
        note: "for Friday\n\nWorth reading",
        provided: .init(
            title: "A page",
            summary: "What it says",
            iconURL: "https://example.com/icon.png",
            imageURL: "https://example.com/a.jpg",
            siteName: "Example"
        ),
        recipients: ["@Ada", "conversation:6F9619FF-8B86-D011-B42D-00C04FC964FF"]
    )

    @Test("Absent members are left out; the rest have the API's names")
    func writtenForm() throws {
        let bare = try APIJSON.encoder().encode(ShareSubmission.Body(text: "see https://example.com/b"))
        #expect(String(decoding: bare, as: UTF8.self) == #"{"text":"see https://example.com/b"}"#)
        let full = try APIJSON.encoder().encode(Self.body)
        #expect(
            String(decoding: full, as: UTF8.self)
                == #"{"note":"for Friday\n\nWorth reading","provided":{"iconURL":"https://example.com/icon.png","#
                + #""imageURL":"https://example.com/a.jpg","siteName":"Example","summary":"What it says","#
                + #""title":"A page"},"recipients":["@Ada","conversation:6F9619FF-8B86-D011-B42D-00C04FC964FF"],"#
                + #""url":"https://example.com/a"}"#
        )
        #expect(try JSONDecoder().decode(ShareSubmission.Body.self, from: full) == Self.body)
    }

    @Test("The server reads what a client wrote into the values it keeps")
    func serverReadsTheClientsBody() throws {
        let submission = try ShareSubmission.decode(Array(APIJSON.encoder().encode(Self.body))).get()
        #expect(submission.url?.absoluteString == "https://example.com/a")
        #expect(submission.text == nil)
        #expect(submission.note == "for Friday\n\nWorth reading")
        #expect(submission.provided.title == "A page" && submission.provided.summary == "What it says")
        #expect(submission.provided.siteName == "Example")
        #expect(submission.provided.iconURL?.absoluteString == "https://example.com/icon.png")
        #expect(submission.provided.imageURL?.absoluteString == "https://example.com/a.jpg")
        #expect(
            submission.recipients.map(\.description)
                == ["@ada", "conversation:6f9619ff-8b86-d011-b42d-00c04fc964ff"]
        )
    }

    /// An item saved by an app that wrote its body another way (another key order, escaped slashes) is
    /// the same request when it is sent again: the replay must find the first attempt's answer.
    @Test("A body written by the Body type and the same members written by hand fingerprint the same")
    func sameFingerprintHoweverWritten() throws {
        let typed = try ShareSubmission.decode(Array(APIJSON.encoder().encode(Self.body))).get()
        let byHand =
            #"{"url":"https:\/\/example.com\/a","#
            + #""recipients":["@Ada","conversation:6F9619FF-8B86-D011-B42D-00C04FC964FF"],"#
            + #""provided":{"title":"A page","summary":"What it says","siteName":"Example","#
            + #""iconURL":"https://example.com/icon.png","imageURL":"https://example.com/a.jpg"},"#
            + #""note":"for Friday\n\nWorth reading"}"#
        let read = try ShareSubmission.decode(Array(byHand.utf8)).get()
        #expect(read.canonicalBody == typed.canonicalBody)
    }
}
