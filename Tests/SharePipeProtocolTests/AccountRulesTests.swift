import SharePipeProtocol
import Testing

/// The handle and device-name rules the server, the web pages and `sharepipe login` all apply.
struct AccountRulesTests {
    @Test(
        "A handle is 1–32 of a–z, 0–9 and _, any case, kept lower-cased without its @",
        arguments: [
            ("ada", "ada"), ("@Ada", "ada"), ("ADA_1", "ada_1"),
            (String(repeating: "A", count: 32), String(repeating: "a", count: 32)),
        ]
    )
    func handles(text: String, expected: String) {
        #expect(User.handle(from: text) == expected)
    }

    @Test(arguments: ["", "@", "@@ada", "a b", "ad-a", "é", String(repeating: "a", count: 33), " ada"])
    func notHandles(text: String) {
        #expect(User.handle(from: text) == nil)
    }

    @Test("A device name is trimmed and 1–100 characters")
    func deviceNames() {
        #expect(Device.name(from: "  Ada's iPhone\n") == "Ada's iPhone")
        #expect(Device.name(from: String(repeating: "é", count: Device.maxNameLength)) != nil)
        #expect(Device.name(from: String(repeating: "é", count: Device.maxNameLength + 1)) == nil)
        #expect(Device.name(from: " \n\t") == nil)
        #expect(Device.nameRule == "Use 1–100 characters for the device's name.")
    }

    @Test("A display name is trimmed and 1–64 characters")
    func displayNames() {
        #expect(User.displayName(from: " Ada Lovelace ") == "Ada Lovelace")
        #expect(User.displayName(from: String(repeating: "x", count: 65)) == nil)
        #expect(User.displayName(from: "  ") == nil)
    }
}
