import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import Synchronization
import Testing

@Suite("The server as a process", .serialized)
struct CrashRecoveryTests {
    /// POSTs a share with `key`; the share id when the server answered 201. The timeout is generous: a
    /// slow answer on a loaded machine must not pass for a lost share (a killed server fails at once).
    static func post(_ client: HTTPClient, port: Int, token: String, key: String) async -> String? {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/shares")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Idempotency-Key", value: key)
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: #"{"url": "https://example.com/\#(key)", "note": "\#(key)"}"#))
        guard let response = try? await client.execute(request, timeout: .seconds(60)), response.status == .created,
            let body = try? await response.body.collect(upTo: 1 << 20),
            let json = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any]
        else { return nil }
        return (json["share"] as? [String: Any])?["id"] as? String
    }

    static func tokens(_ output: String) -> (app: String, share: String)? {
        func token(_ label: String) -> String? {
            output.split(separator: "\n").first { $0.hasPrefix(label) }?.split(separator: " ").last.map(String.init)
        }
        guard let app = token("app token:"), let share = token("share token:") else { return nil }
        return (app, share)
    }

    /// It used to print "listening" before trying, then a raw `bind(…)` error and a maintenance failure.
    @Test("A second server on a port in use says so, and never that it listens")
    func portInUse() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sharepipe-port-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let database = folder.appendingPathComponent("a.sqlite").path
        let first = try await ServerProcess.start(database: database, client: client)
        let output = try await ServerProcess.run([
            "serve", "--database", folder.appendingPathComponent("b.sqlite").path, "--port", String(first.port),
        ])
        _ = first.terminate()
        try await client.shutdown()
        #expect(output.contains("Port \(first.port) on 127.0.0.1 is in use"), "\(output)")
        #expect(!output.contains("listening on http"), "\(output)")
        #expect(!output.contains("maintenance failed"), "\(output)")
    }

    /// SQLite always; PostgreSQL when `SHAREPIPE_TEST_POSTGRES_URL` names one (`.ci/run` sets it).
    static var databases: [String] {
        var databases = ["sqlite"]
        if let url = ProcessInfo.processInfo.environment["SHAREPIPE_TEST_POSTGRES_URL"], !url.isEmpty {
            databases.append(url)
        }
        return databases
    }

    @Test("SIGKILL during an ingestion load loses no share that got a 201", arguments: Self.databases)
    func sigkillLosesNothing(backend: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sharepipe-crash-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let schema = "crash_" + UUID().uuidString.prefix(8).lowercased()
        let database =
            backend == "sqlite"
            ? folder.appendingPathComponent("sharepipe.sqlite").path
            : backend + (backend.contains("?") ? "&" : "?") + "schema=\(schema)"
        try await ServerProcess.run(["users", "add", "ada", "--database", database])
        let tokens = try #require(
            Self.tokens(try await ServerProcess.run(["devices", "add", "ada", "phone", "--database", database]))
        )
        let client = HTTPClient(eventLoopGroupProvider: .singleton)

        let server = try await ServerProcess.start(database: database, client: client)
        let acknowledged = Acknowledged()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for index in 0..<10_000 {
                        let key = "w\(worker)-\(index)"
                        guard let id = await Self.post(client, port: server.port, token: tokens.share, key: key) else {
                            return  // the server is gone
                        }
                        acknowledged.record(key, id)
                    }
                }
            }
            group.addTask {
                // Kill it in the middle of the load: once it has acknowledged a few hundred shares (not after
                // a fixed time, which on a busy machine may be too few), or after 30 s whatever it did.
                let deadline = ContinuousClock.now + .seconds(30)
                while acknowledged.all.count < 300 && ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
                server.kill()
            }
            try await group.waitForAll()
        }
        let before = acknowledged.all
        #expect(before.count > 50, "the load made too few shares to tell anything (\(before.count))")

        let restarted = try await ServerProcess.start(database: database, client: client)
        // Every acknowledged key replays to the same share: it was recorded, with its response.
        for (key, id) in before {
            let replayed = await Self.post(client, port: restarted.port, token: tokens.share, key: key)
            #expect(replayed == id, "share \(key) acknowledged before the crash")
        }
        #expect(restarted.terminate() == 0)
        try await client.shutdown()
    }
}

/// Shares the server answered 201 for: key → share id.
final class Acknowledged: Sendable {
    private let shares = Mutex<[String: String]>([:])
    func record(_ key: String, _ id: String) { shares.withLock { $0[key] = id } }
    var all: [String: String] { shares.withLock { $0 } }
}
