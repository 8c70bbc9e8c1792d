import ArgumentParser
import Foundation
import Testing

@testable import sharepipe

/// `sharepipe login | share | inbox`: bad input and missing sign-in get a message that says what to
/// do, never a crash.
struct KitCommandTests {
    static func container() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("sharepipe-cli-\(UUID().uuidString)").path
    }

    static func parseMessage(_ type: any ParsableCommand.Type, _ arguments: [String]) -> String {
        do {
            _ = try type.parseAsRoot(arguments)
            return ""
        } catch {
            return type.message(for: error)
        }
    }

    @Test func shareNeedsAContainerAndAnHTTPLink() async throws {
        #expect(Self.parseMessage(ShareCommand.self, ["https://example.com/"]).contains("--container DIR"))
        let command = try ShareCommand.parse(["ftp://example.com/", "--container", Self.container()])
        await #expect { try await command.run() } throws: { "\($0)".contains("not an http(s) link") }
    }

    @Test func anUnreadableAttachmentSavesNothing() async throws {
        let container = Self.container()
        defer { try? FileManager.default.removeItem(atPath: container) }
        let command = try ShareCommand.parse(
            ["https://example.com/", "--attach", "/no/such/photo.jpg", "--container", container]
        )
        await #expect { try await command.run() } throws: { ($0 as? ExitCode) == ExitCode(1) }
        let items = try FileManager.default.contentsOfDirectory(atPath: container + "/inbox/items")
        #expect(items.isEmpty)
    }

    @Test func drainWithoutSigningInSaysHowAndExitsThree() async throws {
        let container = Self.container()
        defer { try? FileManager.default.removeItem(atPath: container) }
        let command = try InboxCommand.Drain.parse(["--container", container])
        await #expect { try await command.run() } throws: { ($0 as? ExitCode) == ExitCode(3) }
    }

    @Test func loginRefusesABadServer() async throws {
        let container = Self.container()
        defer { try? FileManager.default.removeItem(atPath: container) }
        let bad = try LoginCommand.parse(["--server", "example.com", "--handle", "ada", "--container", container])
        await #expect { try await bad.run() } throws: { "\($0)".contains("--server needs an http(s) URL") }
        #expect(!FileManager.default.fileExists(atPath: container + "/credentials.json"))
    }
}
