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

    struct Fixture {
        let folder: URL
        let client: HTTPClient
        var server: ServerProcess
        let kit: KitProcesses

        var database: String { folder.appendingPathComponent("sharepipe.sqlite").path }
        /// The server's file blob store, beside its database.
        var blobStore: URL { URL(fileURLWithPath: database + "-blobs") }

        /// SIGKILLs the server and starts it again on its port, on the same database.
        mutating func restartServer() async throws {
            server.kill()
            var lastError: any Error = CancellationError()
            for _ in 0..<10 {
                do {
                    server = try await ServerProcess.start(database: database, client: client, port: server.port)
                    return
                } catch {
                    lastError = error
                    try await Task.sleep(for: .milliseconds(500))
                }
            }
            throw lastError
        }

        /// Kills and restarts the server every 1.5–4 s while `running` holds, at most `times` times;
        /// how many times it did.
        mutating func restartServer(while running: Running, times: Int) async throws -> Int {
            var restarts = 0
            while restarts < times {
                let wait = ContinuousClock.now + .milliseconds(Int.random(in: 1_500...4_000))
                while ContinuousClock.now < wait, running.isOn { try await Task.sleep(for: .milliseconds(50)) }
                guard running.isOn else { break }
                try await restartServer()
                restarts += 1
            }
            return restarts
        }

        static func start() async throws -> Fixture {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "sharepipe-kit-\(UUID().uuidString)"
            )
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let database = folder.appendingPathComponent("sharepipe.sqlite").path
            try await ServerProcess.run(["users", "add", "ada", "--password", "correct horse", "--database", database])
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let server = try await ServerProcess.start(database: database, client: client)
            let kit = KitProcesses(
                container: folder.appendingPathComponent("container").path,
                server: "http://127.0.0.1:\(server.port)"
            )
            return Fixture(folder: folder, client: client, server: server, kit: kit)
        }

        func login() throws {
            let (output, status) = try kit.run(
                ["login", "--server", kit.server, "--handle", "ada"],
                password: "correct horse"
            )
            #expect(status == 0, "\(output)")
        }

        var credential: [String: Any] {
            get throws {
                let data = try Data(contentsOf: URL(fileURLWithPath: kit.container + "/credentials.json"))
                return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            }
        }

        /// Revokes the container's device with its app token, as signing out on another device does.
        func revokeDevice() async throws {
            let credential = try self.credential
            let device = try #require(credential["deviceID"] as? String)
            var request = HTTPClientRequest(url: "\(kit.server)/v1/devices/\(device)")
            request.method = .DELETE
            request.headers.add(
                name: "Authorization",
                value: "Bearer \(try #require(credential["appToken"] as? String))"
            )
            let response = try await client.execute(request, timeout: .seconds(10))
            #expect(response.status == .noContent)
        }

        /// Every share of the account (with the current app token), as notes.
        func serverNotes() async throws -> [String] { try await serverShares().map(\.note) }

        /// Every share on the server, oldest last: its note and the SHA-256s of its files.
        func serverShares() async throws -> [(note: String, files: [String])] {
            let token = try #require(try credential["appToken"] as? String)
            var shares: [(note: String, files: [String])] = []
            var cursor: String?
            repeat {
                var url = "\(kit.server)/v1/shares?limit=100"
                if let cursor {
                    url += "&cursor=\(cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? cursor)"
                }
                var request = HTTPClientRequest(url: url)
                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                let response = try await client.execute(request, timeout: .seconds(10))
                let body = try await response.body.collect(upTo: 8 << 20)
                let page = try #require(try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])
                for share in page["shares"] as? [[String: Any]] ?? [] {
                    let files = (share["attachments"] as? [[String: Any]] ?? []).compactMap { $0["sha256"] as? String }
                    shares.append((share["note"] as? String ?? "", files))
                }
                cursor = page["nextCursor"] as? String
            } while cursor != nil
            return shares
        }

        /// The bytes of the signed-in user's upload `sha256`, as the server has them.
        func uploadedBytes(_ sha256: String) async throws -> Data {
            let token = try #require(try credential["appToken"] as? String)
            var request = HTTPClientRequest(url: "\(kit.server)/v1/uploads/\(sha256)/content")
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            let response = try await client.execute(request, timeout: .seconds(30))
            #expect(response.status == .ok)
            return Data(buffer: try await response.body.collect(upTo: 64 << 20))
        }

        /// What is left in the inbox's folders (besides the lock file), by folder.
        var inboxLeftovers: [String: [String]] {
            var left: [String: [String]] = [:]
            for folder in ["items", "attachments", "state", "leases", "tmp", "quarantine"] {
                let names =
                    (try? FileManager.default.contentsOfDirectory(atPath: kit.container + "/inbox/" + folder)) ?? []
                if !names.isEmpty { left[folder] = names }
            }
            return left
        }

        /// The files of the shares waiting in the inbox.
        var attachmentFiles: [URL] {
            let root = URL(fileURLWithPath: kit.container + "/inbox/attachments")
            let shares = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
            return shares.flatMap { share in
                let folder = root.appendingPathComponent(share)
                return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).map {
                    folder.appendingPathComponent($0)
                }
            }
        }

        /// Drains without kills until only shares with attachments wait (which the server cannot take).
        func drainUntilOnlyAttachmentsWait() throws -> (output: String, status: Int32) {
            var last: (output: String, status: Int32) = ("", 0)
            for _ in 0..<120 {
                last = try kit.run(["inbox", "drain"])
                let left = inboxLeftovers
                if last.status == 0, left["items"]?.count ?? 0 == left["attachments"]?.count ?? 0 { return last }
                Thread.sleep(forTimeInterval: 1)
            }
            return last
        }

        /// Drains without kills until the inbox is empty (backoffs of a second or so may remain).
        func drainUntilEmpty() throws -> (output: String, status: Int32) {
            var last: (output: String, status: Int32) = ("", 0)
            for _ in 0..<120 {
                last = try kit.run(["inbox", "drain"])
                if last.status == 0, last.output.contains("; 0 waiting.") { return last }
                Thread.sleep(forTimeInterval: 1)
            }
            return last
        }

        func stop() async throws {
            _ = server.terminate()
            try await client.shutdown()
            try? FileManager.default.removeItem(at: folder)
        }
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

    /// The photos the chaos writers attach: writer 0 a photo of its own to each share (new bytes to
    /// upload every time) and a small photo every share of the run has; writer 1 the small photo, and
    /// every fifth share a large one instead (over one upload piece of 4 MiB, so a kill can land
    /// between its pieces and the drain resumes); writer 2 none. (Not the large one every time: its
    /// copies into the inbox would load the disk the rest of the suite runs on.)
    struct ChaosPhotos: Sendable {
        let folder: URL
        let shared: URL
        let large: URL

        init(in folder: URL) throws {
            self.folder = folder.appendingPathComponent("photos")
            try FileManager.default.createDirectory(at: self.folder, withIntermediateDirectories: true)
            shared = self.folder.appendingPathComponent("shared.jpg")
            large = self.folder.appendingPathComponent("large.jpg")
            try Data((0..<200_000).map { UInt8(truncatingIfNeeded: ($0 &* 40_503) >> 7) }).write(to: shared)
            try Data((0..<(4 << 20) + 300_000).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) })
                .write(to: large)
        }

        /// Writer 0's photo for the share `tag`: bytes no other share has.
        static func own(_ tag: String) -> Data {
            Data(tag.utf8) + Data((0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ tag.utf8.count) })
        }

        /// Which writer made `tag` (`PHASE-wN-INDEX`), and its index.
        static func writer(of tag: String) -> (writer: Int, index: Int)? {
            let parts = tag.split(separator: "-")
            guard parts.count == 3, parts[1].hasPrefix("w"), let writer = Int(parts[1].dropFirst()), let index = Int(parts[2])
            else { return nil }
            return (writer, index)
        }

        /// The files the writer of `tag` attaches (writing writer 0's own photo first).
        func files(for tag: String) -> [URL] {
            switch Self.writer(of: tag) {
            case (0, _)?:
                let own = folder.appendingPathComponent("\(tag).jpg")
                guard (try? Self.own(tag).write(to: own)) != nil else { return [shared] }
                return [own, shared]
            case (1, let index)?: return [index % 5 == 0 ? large : shared]
            default: return []
            }
        }

        /// The SHA-256s the share with note `tag` must have on the server, in order.
        func digests(for tag: String) throws -> [String] {
            let hash = ShareInboxReliabilityTests.sha256
            switch Self.writer(of: tag) {
            case (0, _)?: return [hash(Self.own(tag)), hash(try Data(contentsOf: shared))]
            case (1, let index)?: return [hash(try Data(contentsOf: index % 5 == 0 ? large : shared))]
            default: return []
            }
        }
    }

    static func sha256(_ data: Data) -> String { SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined() }

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
