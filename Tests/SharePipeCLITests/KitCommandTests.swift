import ArgumentParser
import Foundation
import SharePipeKit
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
        // An invisible character is shown, not printed as it is.
        let hidden = try ShareCommand.parse(["http://exa\u{01}mple.com/", "--container", Self.container()])
        await #expect { try await hidden.run() } throws: { "\($0)".contains("exa\\u{01}mple") }
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
        try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true)
        let command = try InboxCommand.Drain.parse(["--container", container])
        await #expect { try await command.run() } throws: { ($0 as? ExitCode) == ExitCode(3) }
    }

    /// It used to make an empty container at the mistyped path and say "The inbox is empty."
    @Test func readingAMistypedContainerSaysSoAndMakesNothing() async throws {
        let container = Self.container()
        for command in [
            try InboxCommand.List.parse(["--container", container]) as any AsyncParsableCommand,
            try InboxCommand.Drain.parse(["--container", container]),
            try InboxCommand.Clear.parse(["--container", container]),
        ] {
            var mutable = command
            await #expect { try await mutable.run() } throws: { "\($0)".contains("No container at \(container)") }
        }
        #expect(!FileManager.default.fileExists(atPath: container))
    }

    /// Refused shares used to leave only `inbox clear`, which drops every waiting share.
    @Test func discardRemovesOneShare() async throws {
        let container = Self.container()
        defer { try? FileManager.default.removeItem(atPath: container) }
        for link in ["https://example.com/keep", "https://example.com/drop"] {
            try await ShareCommand.parse([link, "--no-upload", "--container", container]).run()
        }
        let inbox = try ContainerOption.parse(["--container", container]).existingInbox()
        let drop = try #require(try inbox.pending().first { $0.item.url?.lastPathComponent == "drop" })
        try await InboxCommand.Discard.parse([drop.item.id.uuidString, "--container", container]).run()
        #expect(try inbox.pending().map { $0.item.url?.lastPathComponent } == ["keep"])
        let again = try InboxCommand.Discard.parse([drop.item.id.uuidString, "--container", container])
        await #expect { try await again.run() } throws: {
            "\($0)".contains("No share \(drop.item.id.uuidString) waits")
        }
    }

    @Test func loginRefusesABadServer() async throws {
        let container = Self.container()
        defer { try? FileManager.default.removeItem(atPath: container) }
        let bad = try LoginCommand.parse(["--server", "example.com", "--handle", "ada", "--container", container])
        await #expect { try await bad.run() } throws: { "\($0)".contains("--server needs an http(s) URL") }
        #expect(!FileManager.default.fileExists(atPath: container + "/credentials.json"))
    }
}

@Suite("sharepipe serve: the sign-up switch and trusted proxies")
struct ServeOptionTests {
    /// A security switch must not fail open: `false` or `0` left sign-up on before.
    @Test("off, false, no and 0 close sign-up; on, true, yes and 1 open it; anything else is not read as on")
    func signUpSwitch() {
        for value in ["off", "OFF", "false", "no", "0", " off "] {
            #expect(ServeCommand.signUp(fromEnvironment: ["SHAREPIPE_SIGN_UP": value]) == false, "\(value)")
        }
        for value in ["on", "true", "Yes", "1"] {
            #expect(ServeCommand.signUp(fromEnvironment: ["SHAREPIPE_SIGN_UP": value]) == true, "\(value)")
        }
        for value in ["disabled", "", "nope"] {
            #expect(ServeCommand.signUp(fromEnvironment: ["SHAREPIPE_SIGN_UP": value]) == nil, "\(value)")
        }
        #expect(ServeCommand.signUp(fromEnvironment: [:]) == nil)
    }

    @Test("SHAREPIPE_PORT that is not a port is refused naming the variable; --port is named as itself")
    func portFromTheEnvironment() throws {
        #expect(try ServeCommand.port(option: nil, environment: [:]) == 8080)
        #expect(try ServeCommand.port(option: nil, environment: ["SHAREPIPE_PORT": "9000"]) == 9000)
        #expect(try ServeCommand.port(option: 9001, environment: ["SHAREPIPE_PORT": "abc"]) == 9001)
        for value in ["abc", "70000", "0", ""] {
            #expect(throws: (any Error).self) {
                try ServeCommand.port(option: nil, environment: ["SHAREPIPE_PORT": value])
            }
            let result = try SharePipeProcess.run(["serve"], environment: ["SHAREPIPE_PORT": value])
            #expect(result.status == 64, "\(value): \(result.output)")
            #expect(
                result.output.contains("SHAREPIPE_PORT must be a port 1–65535 (got “\(value)”)."),
                "\(result.output)"
            )
        }
        let option = KitCommandTests.parseMessage(ServeCommand.self, ["--port", "70000"])
        #expect(option.contains("--port must be 1–65535 (got 70000)."), "\(option)")
        let url = try SharePipeProcess.run(["serve"], environment: ["SHAREPIPE_PUBLIC_URL": "ftp://x"])
        #expect(url.output.contains("SHAREPIPE_PUBLIC_URL must be an absolute http or https URL"), "\(url.output)")
    }

    @Test("--trusted-proxy takes an address or CIDR range; anything else stops serve with a message")
    func trustedProxyOption() throws {
        _ = try ServeCommand.parse(["--trusted-proxy", "10.0.0.0/8", "--trusted-proxy", "fd00::1"])
        for value in ["10.0.0.1/8", "proxy.internal", "10.0.0.0/33", ""] {
            let message = KitCommandTests.parseMessage(ServeCommand.self, ["--trusted-proxy", value])
            #expect(message.contains("--trusted-proxy '\(value)' is not an address or CIDR range"), "\(message)")
        }
    }
}
