import ArgumentParser
import Foundation
import SharePipeKit
import TestSupport
import Testing

@testable import sharepipe

/// `sharepipe login | share | inbox`: bad input and missing sign-in get a message that says what to
/// do, never a crash.
struct KitCommandTests {
    static func container() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("sharepipe-cli-\(UUID().uuidString)").path
    }

    @Test func shareNeedsAContainerAndAnHTTPLink() async throws {
        #expect(ShareCommand.message(parsing: ["https://example.com/"]).contains("--container DIR"))
        let message = ShareCommand.message(parsing: ["ftp://example.com/", "--container", Self.container()])
        #expect(message.contains("must use http or https, not `ftp`"), "\(message)")
        let userinfo = ShareCommand.message(
            parsing: ["https://ada:pw@example.com/", "--container", Self.container()]
        )
        #expect(userinfo.contains("must not contain a user name or password"), "\(userinfo)")
        // An invisible character is shown, not printed as it is.
        let hidden = ShareCommand.message(
            parsing: ["http://exa\u{01}mple.com/", "--container", Self.container()]
        )
        #expect(hidden.contains("exa\\u{01}mple"), "\(hidden)")
    }

    /// `URL(string:)` encoded the `%` of every escape again once one character needed encoding, so the
    /// share sent another URL than the one typed.
    @Test func shareKeepsTheEscapesOfTheLinkAsTyped() throws {
        let command = try ShareCommand.parse(
            ["https://example.com/caf%C3%A9?b=%E2%82%AC&c=€", "--container", Self.container()]
        )
        #expect(try command.link()?.absoluteString == "https://example.com/caf%C3%A9?b=%E2%82%AC&c=%E2%82%AC")
    }

    /// These were found in run(), so the error came with the root command's usage line.
    @Test func usageErrorsShowTheSubcommandsUsage() async throws {
        let container = Self.container()
        for (arguments, usage) in [
            (["share", "ftp://example.com/a", "--container", container], "Usage: sharepipe share "),
            (["login", "--server", "ftp://x", "--handle", "ada", "--container", container], "Usage: sharepipe login "),
            (["inbox", "discard", "notauuid", "--container", container], "Usage: sharepipe inbox discard "),
        ] {
            let result = try await SharePipeProcess.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.output)")
            #expect(result.output.contains(usage), "\(arguments): \(result.output)")
        }
        #expect(!FileManager.default.fileExists(atPath: container))
    }

    /// Photos are shared from a folder as often as links: files alone are a share, and an argument
    /// that names a file is attached, so `sharepipe share beach.jpg` does what it says.
    @Test func filesAloneAreAShareAndFileArgumentsAreAttached() throws {
        let folder = Self.container()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let photo = folder + "/beach.jpg"
        try Data([0xFF, 0xD8, 0xFF]).write(to: URL(fileURLWithPath: photo))
        let alone = try ShareCommand.parse([photo, "--container", Self.container()])
        #expect(try alone.link() == nil)
        #expect(alone.files == [photo])
        let both = try ShareCommand.parse(["https://example.com/", photo, "--attach", photo, "--container", folder])
        #expect(try both.link()?.absoluteString == "https://example.com/")
        #expect(both.files == [photo, photo])
        let nothing = ShareCommand.message(parsing: ["--container", Self.container()])
        #expect(nothing.contains("a link to share, a file to attach, or both"), "\(nothing)")
        let typo = ShareCommand.message(parsing: ["/no/such/beach.jpg", "--container", Self.container()])
        #expect(typo.contains("No file has that name either"), "\(typo)")
        let two = ShareCommand.message(parsing: ["https://a.example/", "https://b.example/", "--container", folder])
        #expect(two.contains("a share has one link"), "\(two)")
    }

    @Test func uploadProgressShowsWhatTheServerStoredAndClearsWhenComplete() {
        let half = UploadProgress(
            itemID: UUID(), name: "beach.jpg", index: 1, count: 3,
            bytesStored: 12_500_000, byteCount: 25_000_000, isComplete: false
        )
        let line = UploadProgressLine.line(half)
        #expect(line.contains("Uploading beach.jpg (2 of 3)"), "\(line)")
        #expect(line.contains("12.5 MB of 25.0 MB"), "\(line)")
        #expect(line.components(separatedBy: "█").count - 1 == 12)
        var done = half
        done.isComplete = true
        #expect(UploadProgressLine.line(done) == "\r\u{1B}[2K")
    }

    @Test("inbox list shows each file of a waiting share and how much of it the server has")
    func inboxListShowsEachFile() {
        let item = ShareItem(
            url: URL(string: "https://example.com/trip"),
            attachments: [
                ShareAttachment(file: "0.jpg", name: "beach.jpg", contentType: "image/jpeg", byteCount: 4_000_000),
                ShareAttachment(file: "1.jpg", name: "dunes\u{1B}[2J.jpg", contentType: "image/jpeg", byteCount: 25_000_000),
                ShareAttachment(file: "2.pdf", contentType: "application/pdf", byteCount: 1_500_000),
            ]
        )
        let lines = InboxAttachmentLines.lines(of: item, state: DeliveryState(uploaded: [4_000_000, 12_500_000, 0]))
        #expect(lines.count == 3)
        #expect(lines[0] == "    beach.jpg  4.0 MB, uploaded", "\(lines)")
        #expect(lines[1].hasSuffix("12.5 MB of 25.0 MB uploaded"), "\(lines)")
        #expect(!lines[1].contains("\u{1B}"), "no control characters reach the terminal: \(lines)")
        #expect(lines[2] == "    2.pdf  1.5 MB, not uploaded yet", "\(lines)")
        // Before any answer of the server's, nothing is uploaded.
        #expect(InboxAttachmentLines.lines(of: item, state: DeliveryState()).allSatisfy { $0.hasSuffix("not uploaded yet") })
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

    @Test("The sign-in hint is a command that can be pasted, whatever the container's path holds")
    func loginHintQuotesTheContainer() async throws {
        let container = Self.container() + " it's mine"
        defer { try? FileManager.default.removeItem(atPath: container) }
        let saved = try await SharePipeProcess.run(["share", "https://example.com/a", "--container", container])
        #expect(saved.status == 0, "\(saved.output)")
        let quoted = "'" + container.replacingOccurrences(of: "'", with: "'\\''") + "'"
        #expect(
            saved.output.contains("Sign in with: sharepipe login --server URL --container \(quoted)\n"),
            "\(saved.output)"
        )
        #expect(ShellWord.quoted("/tmp/plain-path_1.sqlite") == "/tmp/plain-path_1.sqlite")
        #expect(ShellWord.quoted("") == "''")
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

    /// A share held for another account showed no reason, and shared text reached the terminal as it
    /// was, escape sequences and line breaks included.
    @Test func listSaysWhyAHeldShareWaitsAndShowsTextAsOneLine() async throws {
        let container = Self.container()
        defer { try? FileManager.default.removeItem(atPath: container) }
        let inbox = try ContainerOption.parse(["--container", container]).inbox()
        let held = try inbox.add(ShareItem(url: URL(string: "https://example.com/held")))
        _ = try inbox.hold(held.id, reason: "Shared while another account was signed in.")
        _ = try inbox.add(ShareItem(text: "first line\n\u{1b}]0;owned\u{07}second\u{9b}2J https://example.com/t"))

        let listed = try await SharePipeProcess.run(["inbox", "list", "--container", container])
        #expect(listed.status == 0, "\(listed.output)")
        #expect(
            listed.output.contains("https://example.com/held  [waiting: Shared while another account was signed in.]"),
            "\(listed.output)"
        )
        #expect(
            listed.output.contains("first line ]0;ownedsecond2J https://example.com/t  [waiting: not signed in]\n"),
            "\(listed.output)"
        )
        #expect(!listed.output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x07 })
        #expect(listed.output.contains("These wait: not signed in. Sign in with: sharepipe login --server URL"))
    }

    /// After the server refused the token, the hint said `--server URL`, though the container knew it.
    @Test("Once signed in, the sign-in hint names the server and handle the container used")
    func loginHintRemembersTheServer() throws {
        let path = Self.container()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let container = try ContainerOption.parse(["--container", path])
        _ = try container.inbox()
        _ = try container.account.stateForApp()
        let credential = try container.account.signIn(
            server: URL(string: "http://127.0.0.1:8080")!,
            shareToken: "sps_x",
            appToken: nil,
            userID: UUID(),
            deviceID: nil,
            handle: "ada"
        )
        try container.account.markNeedsSignIn(refused: credential.shareToken)
        #expect(container.loginHint == "sharepipe login --server http://127.0.0.1:8080 --handle ada --container \(path)")
    }

    /// A drain while every share backs off sent nothing and said only "Sent 0; 1 waiting."
    @Test("A drain while shares back off says when the next try is")
    func drainSaysWhenTheNextTryIs() async throws {
        let path = Self.container()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let container = try ContainerOption.parse(["--container", path])
        let share = ShareItem(url: URL(string: "https://example.com/a"))
        _ = try container.inbox().add(share)
        _ = try container.account.stateForApp()
        // Port 9 on loopback: nothing listens, so the upload fails at once and the share backs off.
        _ = try container.account.signIn(
            server: URL(string: "http://127.0.0.1:9")!,
            shareToken: "sps_x",
            appToken: nil,
            userID: UUID(),
            deviceID: nil,
            handle: "ada"
        )
        let first = try await SharePipeProcess.run(["inbox", "drain", "--container", path])
        #expect(first.output.contains("Sent 0, 1 will be retried; 1 waiting, the next try after "), "\(first.output)")
        // The first backoff is 5 s, which a loaded machine can spend before the next drain starts: an
        // hour's wait (a server's Retry-After) keeps the share backing off while the second drain runs.
        _ = try container.inbox().release(share.id, retryAfter: .seconds(3600), error: "HTTP 503")
        let second = try await SharePipeProcess.run(["inbox", "drain", "--container", path])
        #expect(second.status == 0)
        #expect(second.output.contains("Sent 0; 1 waiting, the next try after "), "\(second.output)")
        #expect(second.output.contains("(inbox drain --watch tries them then)."), "\(second.output)")
    }

    @Test func loginRefusesABadServerHandleOrDeviceName() async throws {
        let container = Self.container()
        defer { try? FileManager.default.removeItem(atPath: container) }
        let bad = LoginCommand.message(
            parsing: ["--server", "example.com", "--handle", "ada", "--container", container]
        )
        #expect(bad.contains("--server needs an http(s) URL"), "\(bad)")
        let handle = LoginCommand.message(
            parsing: ["--server", "http://127.0.0.1:1", "--handle", "bad handle!", "--container", container]
        )
        #expect(handle.contains("'bad handle!' is not a handle."), "\(handle)")
        let device = LoginCommand.message(
            parsing: [
                "--server", "http://127.0.0.1:1", "--handle", "ada", "--device-name", "", "--container", container,
            ]
        )
        #expect(device.contains("--device-name must be 1–100 characters"), "\(device)")
        #expect(!FileManager.default.fileExists(atPath: container + "/credentials.json"))
    }

    /// `login --handle @Ada` said "Signed in as @@ada" and stored "@ada"; an empty SHAREPIPE_PASSWORD
    /// was sent as the password.
    @Test func loginKeepsTheHandleAsTheServerDoes() async throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("server.sqlite").path
        let password = "correct horse battery"
        let created = try await SharePipeProcess.run([
            "users", "add", "ada", "--password", password, "--database", database,
        ])
        #expect(created.status == 0, "\(created.output)")
        let (server, port) = try await SharePipeProcess.serve(database: database)
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let container = folder.appendingPathComponent("container").path
        let arguments = ["login", "--server", "http://127.0.0.1:\(port)", "--handle", "@Ada", "--container", container]

        let empty = try await SharePipeProcess.run(arguments, environment: ["SHAREPIPE_PASSWORD": ""])
        #expect(empty.status != 0)
        #expect(
            empty.output.contains("No password given: set SHAREPIPE_PASSWORD"),
            "an empty variable is not a password: \(empty.output)"
        )

        let result = try await SharePipeProcess.run(arguments, environment: ["SHAREPIPE_PASSWORD": password])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("Signed in as @ada (device"), "\(result.output)")
        let stored = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: container + "/credentials.json"))
        )
        #expect((stored as? [String: Any])?["handle"] as? String == "ada", "\(stored)")
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

    @Test("serve refuses an unusable port, rate, public URL or empty host before starting, naming where it came from")
    func portFromTheEnvironment() async throws {
        #expect(try ServeCommand.port(option: nil, environment: [:]) == 8080)
        #expect(try ServeCommand.port(option: nil, environment: ["SHAREPIPE_PORT": "9000"]) == 9000)
        #expect(try ServeCommand.port(option: 9001, environment: ["SHAREPIPE_PORT": "abc"]) == 9001)
        for value in ["abc", "70000", "0", ""] {
            #expect(throws: (any Error).self) {
                try ServeCommand.port(option: nil, environment: ["SHAREPIPE_PORT": value])
            }
            let result = try await SharePipeProcess.run(["serve"], environment: ["SHAREPIPE_PORT": value])
            #expect(result.status == 64, "\(value): \(result.output)")
            #expect(
                result.output.contains("SHAREPIPE_PORT must be a port 1–65535 (got “\(value)”)."),
                "\(result.output)"
            )
        }
        let option = ServeCommand.message(parsing: ["--port", "70000"])
        #expect(option.contains("--port must be 1–65535 (got 70000)."), "\(option)")
        // Twice this rate, the burst, overflowed: serve trapped after running its migrations.
        let rate = ServeCommand.message(
            parsing: ["--requests-per-second-per-token", "9223372036854775807"]
        )
        #expect(rate.contains("--requests-per-second-per-token must be 0–1000000"), "\(rate)")
        let url = try await SharePipeProcess.run(["serve"], environment: ["SHAREPIPE_PUBLIC_URL": "ftp://x"])
        #expect(url.output.contains("SHAREPIPE_PUBLIC_URL must be an absolute http or https URL"), "\(url.output)")
        // An empty host was taken as a name, and refused after the migrations ran, as “ is not an address”.
        let host = try await SharePipeProcess.run(["serve"], environment: ["SHAREPIPE_HOST": ""])
        #expect(host.status == 64, "\(host.output)")
        #expect(host.output.contains("SHAREPIPE_HOST is empty: give an address to listen on"), "\(host.output)")
        #expect(!host.output.contains("migration"), "\(host.output)")
        let hostOption = ServeCommand.message(parsing: ["--host", " "])
        #expect(hostOption.contains("--host is empty"), "\(hostOption)")
    }

    @Test("--trusted-proxy takes an address or CIDR range; anything else stops serve with a message")
    func trustedProxyOption() throws {
        _ = try ServeCommand.parse(["--trusted-proxy", "10.0.0.0/8", "--trusted-proxy", "fd00::1"])
        for (value, problem) in [
            ("0.0.0.0/0", "would trust every address"), ("::/0", "would trust every address"),
            ("128.0.0.0/1", "would trust every address"), ("8000::/1", "would trust every address"),
            ("::ffff:10.0.0.0/104", "IPv4-mapped range"),
        ] {
            let message = ServeCommand.message(parsing: ["--trusted-proxy", value])
            #expect(message.contains(problem), "\(message)")
        }
        for value in ["10.0.0.1/8", "proxy.internal", "10.0.0.0/33", ""] {
            let message = ServeCommand.message(parsing: ["--trusted-proxy", value])
            #expect(message.contains("--trusted-proxy '\(value)' is not an address or CIDR range"), "\(message)")
        }
    }
}
