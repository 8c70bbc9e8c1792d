import Crypto
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import Synchronization
import Testing

/// SharePipeKit's promises with real processes against the real server: SIGKILLs at random moments
/// across concurrent "extension" writers (`sharepipe share`) and two "app" drainers
/// (`sharepipe inbox drain`) lose no share and send none twice; a token revoked mid-run makes items
/// wait until `sharepipe login`; a reinstalled app never uses the token left behind.
@Suite("SharePipeKit with real processes", .serialized)
struct ShareInboxReliabilityTests {
    /// How many SIGKILLs the chaos test deals: the issue's 1,000 by default (about 45 s;
    /// docs/sharepipekit.md), fewer with SHAREPIPE_RELIABILITY_KILLS for a quick local run.
    static var killTarget: Int {
        ProcessInfo.processInfo.environment["SHAREPIPE_RELIABILITY_KILLS"].flatMap(Int.init) ?? 1_000
    }

    /// Whether a chaos phase still runs.
    final class Running: Sendable {
        private let on = Mutex(true)
        var isOn: Bool { on.withLock { $0 } }
        func end() { on.withLock { $0 = false } }
    }

    /// What the writers said: tags whose writer printed "saved <id>" (the share was persisted, so it
    /// must reach the server), and every "Not saved: …" message of a writer that was not killed.
    final class WriterLog: Sendable {
        private let tags = Mutex<Set<String>>([])
        private let refusals = Mutex<[String]>([])
        func saved(_ tag: String) { _ = tags.withLock { $0.insert(tag) } }
        func notSaved(_ message: String) { refusals.withLock { $0.append(message) } }
        var all: Set<String> { tags.withLock { $0 } }
        var notSaved: [String] { refusals.withLock { $0 } }
    }

    /// The id in the `saved <id>` line `sharepipe share` prints once the share is in the inbox. Only
    /// that whole line counts: a message that merely contains the word (a reason it was not saved)
    /// must not pass for it.
    static func savedID(in output: String) -> UUID? {
        for line in output.split(separator: "\n") where line.hasPrefix("saved ") {
            if let id = UUID(uuidString: String(line.dropFirst("saved ".count))) { return id }
        }
        return nil
    }


    /// Three writers (two of them attaching photos, ``ChaosPhotos``) and two drainers run processes in
    /// a loop while a killer SIGKILLs a random one of them every 0–80 ms, until `kills` SIGKILLs in all
    /// were dealt (and at least 5 shares were saved). Returns what the writers said.
    static func chaos(_ kit: KitProcesses, until kills: Int, photos: ChaosPhotos, phase: String) async -> WriterLog {
        let persisted = WriterLog()
        let done = Mutex(false)
        await KitProcesses.onThreads(6) { role in
            switch role {
            case 0..<3:
                var index = 0
                while !done.withLock({ $0 }) {
                    let tag = "\(phase)-w\(role)-\(index)"
                    index += 1
                    // Writers 0 and 1 attach photos: their shares go with them, uploaded first.
                    let attach = photos.files(for: tag).flatMap { ["--attach", $0.path] }
                    guard let (output, _) = try? kit.run(["share", "https://example.com/r/\(tag)", "--note", tag] + attach)
                    else { continue }
                    if Self.savedID(in: output) != nil { persisted.saved(tag) }
                    for line in output.split(separator: "\n") where line.hasPrefix("Not saved:") {
                        persisted.notSaved(String(line))
                    }
                }
            case 3, 4:
                while !done.withLock({ $0 }) { _ = try? kit.run(["inbox", "drain"]) }
            default:
                while kit.kills < kills {
                    Thread.sleep(forTimeInterval: Double.random(in: 0...0.08))
                    _ = kit.killOne()
                }
                // On a loaded machine few writers may finish between kills: let a few save in peace,
                // so each phase has shares to check whatever the load.
                while persisted.all.count < 5 { Thread.sleep(forTimeInterval: 0.05) }
                done.withLock { $0 = true }
            }
        }
        return persisted
    }

    /// Runs ``chaos(_:until:photos:phase:)`` while the server is SIGKILLed and restarted up to
    /// `restarts` times; what the writers said, and how many restarts there were.
    static func chaos(
        _ fixture: inout Fixture,
        until kills: Int,
        photos: ChaosPhotos,
        phase: String,
        restarts: Int
    ) async throws -> (log: WriterLog, restarts: Int) {
        let running = Running()
        let kit = fixture.kit
        let writers = Task {
            let log = await Self.chaos(kit, until: kills, photos: photos, phase: phase)
            running.end()
            return log
        }
        let restarted = try await fixture.restartServer(while: running, times: restarts)
        return (await writers.value, restarted)
    }

    @Test(
        "SIGKILLs across writers, drainers and the server, and a token revoked mid-run: every saved share on the server once, its photos byte for byte, nothing left over"
    )
    func chaos() async throws {
        var fixture = try await Fixture.start()
        try fixture.login()
        let photos = try ChaosPhotos(in: fixture.folder)
        let kit = fixture.kit
        let target = Self.killTarget
        let started = ContinuousClock.now

        // Half the kills with a valid token, the server killed and restarted three times meanwhile.
        let (phaseA, restartsA) = try await Self.chaos(&fixture, until: target / 2, photos: photos, phase: "a", restarts: 3)
        // The device is signed out elsewhere: the rest of the kills with a revoked token.
        try await fixture.revokeDevice()
        let (phaseB, restartsB) = try await Self.chaos(&fixture, until: target, photos: photos, phase: "b", restarts: 2)
        let chaosTime = ContinuousClock.now - started
        let (before, after) = (phaseA.all, phaseB.all)
        // A writer that lived to the end saved its share, unless the inbox was full (phase b's shares
        // pile up until sign-in); any other refusal is a share the user was told was lost.
        let refusals = (phaseA.notSaved + phaseB.notSaved).filter { !$0.contains("Open SharePipe to send them") }
        #expect(refusals.isEmpty, "writers not killed that did not save: \(refusals)")
        print(
            "SharePipeKit chaos: \(kit.kills) SIGKILLs of the Kit's processes, \(restartsA + restartsB) of the server, "
                + "\(before.count + after.count) shares saved "
                + "(\(before.union(after).filter { !$0.contains("-w2-") }.count) with photos), in \(chaosTime)"
        )
        #expect(kit.kills >= target)
        // The full run lasts long enough for the restarts (a quick local run with fewer kills may not).
        if target >= 1_000 { #expect(restartsA + restartsB >= 3, "the server was killed only \(restartsA + restartsB) time(s)") }
        #expect(!before.isEmpty && !after.isEmpty)

        // Items saved after the revocation wait in the inbox; the app cannot send them.
        let waiting = try kit.run(["inbox", "drain"])
        #expect(waiting.status == 3, "\(waiting.output)")
        #expect(waiting.output.contains("sharepipe login"))
        let listed = try kit.run(["inbox", "list"]).output
        #expect(after.allSatisfy { listed.contains("https://example.com/r/\($0)") })

        // Signing in again sends them, those with photos with them.
        try fixture.login()
        let final = try fixture.drainUntilEmpty()
        #expect(final.status == 0, "\(final.output)")
        _ = try kit.run(["inbox", "drain"])  // sweeps what the killed processes left

        let shares = try await fixture.serverShares()
        let counted = Dictionary(shares.map { ($0.note, 1) }, uniquingKeysWith: +)
        let duplicates = counted.filter { $0.value > 1 }
        #expect(duplicates.isEmpty, "sent twice: \(duplicates)")
        let saved = before.union(after)
        let missing = saved.subtracting(counted.keys)
        #expect(missing.isEmpty, "saved but not on the server: \(missing.sorted())")
        // Each share has its photos on the server, in order; the others have none.
        let wrongFiles = try shares.filter { try $0.files != photos.digests(for: $0.note) }.map(\.note)
        #expect(wrongFiles.isEmpty, "shares with the wrong files: \(wrongFiles.sorted())")
        #expect(saved.contains { $0.contains("-w0-") } && saved.contains { $0.contains("-w1-") }, "no share with photos was saved")
        let left = fixture.inboxLeftovers
        #expect((left["items"] ?? []).isEmpty && (left["attachments"] ?? []).isEmpty, "\(left)")

        // The server's side: every photo a share names is stored once, byte for byte (each blob
        // file's bytes hash to its name), no blob is left that no share names, and no upload's bytes
        // are left half-sent.
        let named = Set(shares.flatMap(\.files))
        let blobFiles = try Self.files(under: fixture.blobStore.appendingPathComponent("blobs"))
        let stored = Dictionary(grouping: blobFiles, by: \.lastPathComponent)
        #expect(stored.values.allSatisfy { $0.count == 1 }, "a blob stored twice: \(stored.filter { $0.value.count > 1 }.keys)")
        #expect(Set(stored.keys) == named, "blobs no share names: \(Set(stored.keys).subtracting(named)); named but missing: \(named.subtracting(stored.keys))")
        for file in blobFiles {
            #expect(Self.sha256(try Data(contentsOf: file)) == file.lastPathComponent, "\(file.path) is not the bytes it names")
        }
        let halfSent = try Self.files(under: fixture.blobStore.appendingPathComponent("uploads"))
        #expect(halfSent.isEmpty, "upload bytes left: \(halfSent.map(\.lastPathComponent))")
        // And the API serves them: the shared photo as the writers had it.
        for photo in [photos.shared, photos.large] where named.contains(Self.sha256(try Data(contentsOf: photo))) {
            #expect(try await fixture.uploadedBytes(Self.sha256(try Data(contentsOf: photo))) == (try Data(contentsOf: photo)))
        }
        #expect(named.contains(Self.sha256(try Data(contentsOf: photos.large))), "no share with the large photo was saved")
        try await fixture.stop()
    }

    /// The regular files under `folder`, at any depth.
    static func files(under folder: URL) throws -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        return try walker.compactMap { $0 as? URL }.filter { try $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true }
    }

    /// `share URL --attach photo.png` printed "Sent." while the server stored only the link and the
    /// note, and the inbox deleted the photo. Now the photo is uploaded first; the share is reported
    /// sent, and leaves the inbox, only once the server has both.
    @Test("A share with an attachment is sent with it: the server has the file byte for byte, then the inbox lets it go")
    func attachmentsAreNeverDropped() async throws {
        let fixture = try await Fixture.start()
        try fixture.login()
        let photo = fixture.folder.appendingPathComponent("photo.png")
        // Over one upload piece (4 MiB), so it goes in several.
        let bytes = Data((0..<(9 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try bytes.write(to: photo)
        // Saved only, the share waits in the inbox, file and all; the app's drain sends it.
        let saved = try fixture.kit.run(
            ["share", "--no-upload", "https://example.com/with-photo", "--note", "look", "--attach", photo.path]
        )
        #expect(saved.status == 0, "saved: \(saved.output)")
        #expect(!saved.output.contains("Sent."), "\(saved.output)")
        #expect(try fixture.attachmentFiles.map { try Data(contentsOf: $0) } == [bytes])
        let listed = try fixture.kit.run(["inbox", "list"]).output
        #expect(listed.contains("\n    photo.png  9.4 MB, not uploaded yet\n"), "\(listed)")
        let drained = try fixture.drainUntilEmpty()
        #expect(drained.status == 0, "\(drained.output)")
        let shares = try await fixture.serverShares()
        let digest = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        #expect(shares.map(\.note) == ["look"] && shares.first?.files == [digest], "\(shares)")
        #expect(try await fixture.uploadedBytes(digest) == bytes)
        #expect(fixture.attachmentFiles.isEmpty)
        // Shared again straight away: sent at once, the file already on the server.
        let again = try fixture.kit.run(["share", "https://example.com/again", "--note", "again", "--attach", photo.path])
        #expect(again.output.contains("Sent."), "\(again.output)")
        #expect(try await fixture.serverShares().first { $0.note == "again" }?.files == [digest])
        try await fixture.stop()
    }

    @Test("Signing in to a server that is not there says so and stores nothing")
    func loginUnreachable() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sharepipe-kit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let kit = KitProcesses(container: folder.path, server: "http://127.0.0.1:1")
        // The password only in the child's environment: setting it in this process would leak it into
        // every other test's children.
        let (output, status) = try kit.run(["login", "--server", kit.server, "--handle", "ada"], password: "secret")
        #expect(status == 1)
        #expect(output.contains("Could not reach http://127.0.0.1:1"), "\(output)")
        #expect(!output.contains("NSURLErrorDomain"), "the reason in words: \(output)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/credentials.json"))
    }

    /// The watcher used to wake only when the inbox changed: a share that failed waited for the next
    /// share, however long that took.
    @Test("A watching drain retries a failed share when its wait ends, with nothing new shared")
    func watchRetries() async throws {
        let fixture = try await Fixture.start()
        try fixture.login()
        fixture.server.kill()
        #expect(try fixture.kit.run(["share", "--no-upload", "https://example.com/waits"]).status == 0)
        let kit = fixture.kit
        let watcher = Task.detached { try kit.run(["inbox", "drain", "--watch"]) }
        // The watcher's first pass finds no server and backs off 5 s; the server is back before that ends.
        try await Task.sleep(for: .seconds(1))
        let database = fixture.folder.appendingPathComponent("sharepipe.sqlite").path
        let restarted = try await ServerProcess.start(
            database: database,
            client: fixture.client,
            port: fixture.server.port
        )
        var delivered = false
        for _ in 0..<120 where !delivered {
            delivered = try await fixture.serverNotes().count == 1
            if !delivered { try await Task.sleep(for: .milliseconds(500)) }
        }
        #expect(kit.killOne())
        let output = try await watcher.value.output
        #expect(delivered, "\(output)")
        _ = restarted.terminate()
        try await fixture.stop()
    }

    /// Signing in changes no inbox file, so the watcher, woken only by inbox changes and by backoff,
    /// went on waiting while `login` said "send them with sharepipe inbox drain".
    @Test("A watching drain sends what waits once the user signs in, with nothing new shared")
    func watchNoticesSignIn() async throws {
        let fixture = try await Fixture.start()
        #expect(try fixture.kit.run(["share", "--no-upload", "https://example.com/signed-out"]).status == 0)
        let kit = fixture.kit
        let watcher = Task.detached { try kit.run(["inbox", "drain", "--watch"]) }
        try await Task.sleep(for: .seconds(1))
        try fixture.login()
        var delivered = false
        for _ in 0..<60 where !delivered {
            delivered = try await fixture.serverNotes().count == 1
            if !delivered { try await Task.sleep(for: .milliseconds(250)) }
        }
        #expect(kit.killOne())
        let output = try await watcher.value.output
        #expect(delivered, "\(output)")
        #expect(output.components(separatedBy: "Not signed in").count == 2, "said once, not at every look: \(output)")
        try await fixture.stop()
    }

    /// `drain` exited 0 after the server refused a share: a script running it had nothing to tell its
    /// user, while the share sat in the inbox never to be sent.
    @Test("drain exits 4 while shares the server refused wait, and 0 once they are discarded")
    func drainReportsRefusedShares() async throws {
        let fixture = try await Fixture.start()
        try fixture.login()
        // The Kit cannot know which handles exist: the server refuses the share (422).
        #expect(try fixture.kit.run(["share", "--no-upload", "https://example.com/a", "--to", "nobody"]).status == 0)
        #expect(try fixture.kit.run(["share", "--no-upload", "https://example.com/b"]).status == 0)
        let refused = try fixture.kit.run(["inbox", "drain"])
        #expect(refused.status == 4, "\(refused.output)")
        #expect(refused.output.contains("Sent 1, 1 refused by the server"), "\(refused.output)")
        #expect(refused.output.contains("1 share(s) the server refused wait in the inbox"), "\(refused.output)")
        // Still there on the next pass, which sends nothing new.
        #expect(try fixture.kit.run(["inbox", "drain"]).status == 4)
        let listed = try fixture.kit.run(["inbox", "list"]).output
        let id = try #require(listed.split(separator: " ").first.map(String.init), "\(listed)")
        #expect(listed.contains("[refused by the server:"), "\(listed)")
        #expect(try fixture.kit.run(["inbox", "discard", id]).status == 0)
        let after = try fixture.kit.run(["inbox", "drain"])
        #expect(after.status == 0, "\(after.output)")
        #expect(try await fixture.serverNotes().count == 1)
        try await fixture.stop()
    }

    @Test("A server URL written with a capital scheme signs in")
    func capitalScheme() async throws {
        let fixture = try await Fixture.start()
        let server = "HTTP://" + fixture.kit.server.dropFirst("http://".count)
        let (output, status) = try fixture.kit.run(
            ["login", "--server", server, "--handle", "ada"],
            password: "correct horse"
        )
        #expect(status == 0, "\(output)")
        try await fixture.stop()
    }

    /// Every `sharepipe login` added a device of the same name: signing in again from one container
    /// piled devices up on the account.
    @Test("Signing in again from the same container reuses its device, whose old tokens stop working")
    func loginAgainReusesTheDevice() async throws {
        let fixture = try await Fixture.start()
        try fixture.login()
        let first = try fixture.credential
        let (output, status) = try fixture.kit.run(
            ["login", "--server", fixture.kit.server, "--handle", "ada"],
            password: "correct horse"
        )
        #expect(status == 0 && output.contains("signed in again"), "\(output)")
        let second = try fixture.credential
        #expect(second["deviceID"] as? String == first["deviceID"] as? String)
        #expect(second["appToken"] as? String != first["appToken"] as? String)
        var request = HTTPClientRequest(url: "\(fixture.kit.server)/v1/devices")
        request.headers.add(name: "Authorization", value: "Bearer \(try #require(second["appToken"] as? String))")
        let listed = try await fixture.client.execute(request, timeout: .seconds(10))
        let body = try await listed.body.collect(upTo: 1 << 20)
        let devices = try #require(try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])["devices"] as? [Any]
        #expect(devices?.count == 1, "one device, signed in twice")
        var old = HTTPClientRequest(url: "\(fixture.kit.server)/v1/devices")
        old.headers.add(name: "Authorization", value: "Bearer \(try #require(first["appToken"] as? String))")
        #expect(try await fixture.client.execute(old, timeout: .seconds(10)).status == .unauthorized)
        try await fixture.stop()
    }

    /// Every message about an unreadable credential says to sign in again; signing in must then work.
    @Test("A damaged credential file is replaced by signing in again")
    func damagedCredential() async throws {
        let fixture = try await Fixture.start()
        try fixture.login()
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: fixture.kit.container + "/credentials.json"))
        let shared = try fixture.kit.run(["share", "--no-upload", "https://example.com/kept"])
        #expect(shared.status == 0, "\(shared.output)")
        try fixture.login()
        #expect(try fixture.drainUntilEmpty().status == 0)
        #expect(try await fixture.serverNotes().count == 1)
        try await fixture.stop()
    }

    @Test("Reinstall: the install marker is gone but the token was left — it is not used, and the app wipes it")
    func reinstall() async throws {
        let fixture = try await Fixture.start()
        try fixture.login()
        let appToken = try #require(try fixture.credential["appToken"] as? String)
        try FileManager.default.removeItem(atPath: fixture.kit.container + "/install-marker")

        let shared = try fixture.kit.run(["share", "https://example.com/after-reinstall"])
        #expect(shared.status == 0)
        #expect(shared.output.contains("Saved — sign in to SharePipe to send it."))
        // Nothing reached the server with the old token.
        var request = HTTPClientRequest(url: "\(fixture.kit.server)/v1/shares")
        request.headers.add(name: "Authorization", value: "Bearer \(appToken)")
        let response = try await fixture.client.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 20)
        let page = try #require(try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])
        #expect((page["shares"] as? [Any])?.count == 0)
        // The app's first launch wipes the leftover token and keeps the share for after sign-in.
        let drained = try fixture.kit.run(["inbox", "drain"])
        #expect(drained.status == 3)
        #expect(!FileManager.default.fileExists(atPath: fixture.kit.container + "/credentials.json"))
        try fixture.login()
        #expect(try fixture.drainUntilEmpty().status == 0)
        #expect(try await fixture.serverNotes().count == 1)
        try await fixture.stop()
    }
}
