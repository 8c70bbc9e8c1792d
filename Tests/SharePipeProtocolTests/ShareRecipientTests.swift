import Foundation
import SharePipeProtocol
import Testing

struct ShareRecipientTests {
    @Test(
        arguments: [
            ("@ada", ShareRecipient.user(handle: "ada")),
            ("@Ada_Lovelace_1815", .user(handle: "ada_lovelace_1815")),
            ("@_", .user(handle: "_")),
            ("@" + String(repeating: "z", count: 32), .user(handle: String(repeating: "z", count: 32))),
            (
                "conversation:6F9619FF-8B86-D011-B42D-00C04FC964FF",
                .conversation(UUID(uuidString: "6f9619ff-8b86-d011-b42d-00c04fc964ff")!)
            ),
        ]
    )
    func parses(text: String, recipient: ShareRecipient) {
        #expect(ShareRecipient(parsing: text) == recipient)
    }

    @Test(
        arguments: [
            "", "@", "ada", "@@ada", "@ada!", "@" + String(repeating: "z", count: 33), "@ada ", " @ada", "@ａｄａ",
            "conversation:", "conversation:6F9619FF-8B86-D011-B42D-00C04FC964F",
            "conversation: 6F9619FF-8B86-D011-B42D-00C04FC964FF",
            "conversation:{6F9619FF-8B86-D011-B42D-00C04FC964FF}", "CONVERSATION:6F9619FF-8B86-D011-B42D-00C04FC964FF",
        ]
    )
    func refuses(text: String) {
        #expect(ShareRecipient(parsing: text) == nil)
    }

    @Test func writtenFormIsLowerCase() {
        #expect(ShareRecipient(parsing: "@ADA")?.description == "@ada")
        #expect(
            ShareRecipient(parsing: "conversation:6F9619FF-8B86-D011-B42D-00C04FC964FF")?.description
                == "conversation:6f9619ff-8b86-d011-b42d-00c04fc964ff"
        )
    }
}
