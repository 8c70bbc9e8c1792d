import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization
import TestSupport
import Testing

/// PostgreSQL restarts while shares pour in. Opt-in: restarting the database disturbs every other test
/// using it, so this runs only when `SHAREPIPE_TEST_POSTGRES_RESTART_COMMAND` says how to restart it
/// (`.ci/run` sets `pg_ctlcluster 15 main restart` and runs this suite on its own).
@Suite(
    "PostgreSQL restarts under load",
    .serialized,
    .enabled(if: IntegrationDatabase.postgresRestartCommand != nil && IntegrationDatabase.postgresURL != nil)
)
struct PostgresRestartTests {
    @Test("The server rides out a PostgreSQL restart: clean 503s meanwhile, then recovery; no 201 is lost")
    func restartDuringLoad() async throws {
        let database = try IntegrationDatabase(.postgres(try #require(IntegrationDatabase.postgresURL)))
        defer { database.remove() }
        let tokens = try await database.addAccount("ada")
        try await withLiveClient { client in
            let server = try await ServerProcess.start(database: database.location, client: client, log: database.log)
            defer { if server.isRunning { server.kill() } }
            try await Self.loadThroughRestart(server, client: client, tokens: tokens, database: database)
            // It still stops gracefully, with the requests and jobs it holds.
            #expect(try await server.stops(within: .seconds(60)), "no exit on SIGTERM; log: \(database.logTail)")
        }
    }

    /// Loads `server` with shares, restarts PostgreSQL in the middle, and checks what the clients saw.
    static func loadThroughRestart(
        _ server: ServerProcess,
        client: HTTPClient,
        tokens: DeviceTokens,
        database: IntegrationDatabase
    ) async throws {
        let load = IngestionLoad()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var index = 0
                    // However the restart goes, the load ends within three minutes.
                    let end = ContinuousClock.now + .seconds(180)
                    while !load.isStopped && !Task.isCancelled && ContinuousClock.now < end {
                        index += 1
                        let key = "w\(worker)-\(index)"
                        do {
                            let reply = try await client.send(
                                .POST,
                                server.url("/v1/shares"),
                                token: tokens.share,
                                key: key,
                                json: #"{"url": "https://example.com/\#(key)"}"#,
                                // Far longer than any wait the server should impose: past it, the request hung.
                                timeout: .seconds(60)
                            )
                            load.record(key: key, reply: reply)
                        } catch {
                            load.recordUnanswered(key: key, error: error)
                        }
                    }
                }
            }
            group.addTask {
                defer { load.stop() }
                // Restart in the middle of the load: once it has made some shares (not after a fixed
                // time, which on a busy machine may be too few), or after 60 s whatever it did.
                _ = await eventually(timeout: .seconds(60)) { load.createdBeforeRestart > 50 }
                let status = try await Shell.run(try #require(IntegrationDatabase.postgresRestartCommand))
                #expect(status == 0 || status == nil, "the restart command failed")
                load.markRestarted()
                // Keep the load on until the server has taken shares again for a while, or give up.
                let deadline = ContinuousClock.now + .seconds(60)
                while load.createdSinceRestart < 200 && ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
            try await group.waitForAll()
        }

        #expect(server.isRunning, "the server exited: \(database.logTail)")
        #expect(load.unanswered.isEmpty, "requests with no answer within 60 s: \(load.unanswered.prefix(5))")
        let statuses = load.statusCounts
        #expect(Set(statuses.keys).isSubset(of: [201, 503]), "statuses: \(statuses); log: \(database.logTail)")
        #expect(load.createdBeforeRestart > 20, "the load made too few shares to tell anything")
        // Recovery by itself: shares are taken again within a generous deadline after PostgreSQL is back.
        #expect(load.createdSinceRestart >= 200, "the server did not recover: \(statuses); \(database.logTail)")
        if let recovery = load.recoveryTime { #expect(recovery < .seconds(30)) }
        for reply in load.unavailable.prefix(50) {
            #expect(
                reply.isProblem && reply.problemType == "unavailable",
                "\(String(decoding: reply.body, as: UTF8.self))"
            )
            #expect(reply.headers.first(name: "Retry-After").flatMap(Int.init) != nil)
        }
        var ready = 0
        for _ in 0..<60 where ready != 200 {
            ready = (try? await client.send(.GET, server.url("/ready"), timeout: .seconds(5)).status) ?? 0
            if ready != 200 { try await Task.sleep(for: .milliseconds(500)) }
        }
        #expect(ready == 200, "/ready did not come back")

        // Every share that got a 201 is stored: its key replays to the same share.
        let acknowledged = Array(load.acknowledged)
        let lost = try await withThrowingTaskGroup(of: [String].self) { group in
            for slice in 0..<8 {
                group.addTask {
                    var lost: [String] = []
                    for index in stride(from: slice, to: acknowledged.count, by: 8) {
                        let (key, id) = acknowledged[index]
                        let reply = try await client.send(
                            .POST,
                            server.url("/v1/shares"),
                            token: tokens.share,
                            key: key,
                            json: #"{"url": "https://example.com/\#(key)"}"#
                        )
                        if reply.status != 201 || (reply.json["share"] as? [String: Any])?["id"] as? String != id {
                            lost.append(key)
                        }
                    }
                    return lost
                }
            }
            return try await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(lost.isEmpty, "acknowledged shares missing after the restart: \(lost.prefix(10))")
    }
}

/// What an ingestion load saw: every answer by key, and when PostgreSQL came back.
final class IngestionLoad: Sendable {
    private struct State {
        var stopped = false
        var restartedAt: ContinuousClock.Instant?
        var firstCreatedAfterRestart: ContinuousClock.Instant?
        var createdBefore = 0
        var createdSince = 0
        var acknowledged: [String: String] = [:]
        var statuses: [Int: Int] = [:]
        var unavailable: [LiveReply] = []
        var unanswered: [String] = []
    }

    private let state = Mutex(State())

    var isStopped: Bool { state.withLock { $0.stopped } }
    func stop() { state.withLock { $0.stopped = true } }
    func markRestarted() { state.withLock { $0.restartedAt = .now } }

    func record(key: String, reply: LiveReply) {
        let id = (reply.json["share"] as? [String: Any])?["id"] as? String
        state.withLock { state in
            state.statuses[reply.status, default: 0] += 1
            if reply.status == 503 && state.unavailable.count < 100 { state.unavailable.append(reply) }
            guard reply.status == 201, let id else { return }
            state.acknowledged[key] = id
            if state.restartedAt == nil {
                state.createdBefore += 1
            } else {
                state.createdSince += 1
                if state.firstCreatedAfterRestart == nil { state.firstCreatedAfterRestart = .now }
            }
        }
    }

    func recordUnanswered(key: String, error: any Error) {
        state.withLock { $0.unanswered.append("\(key): \(error)") }
    }

    var createdBeforeRestart: Int { state.withLock { $0.createdBefore } }
    var createdSinceRestart: Int { state.withLock { $0.createdSince } }
    var acknowledged: [String: String] { state.withLock { $0.acknowledged } }
    var statusCounts: [Int: Int] { state.withLock { $0.statuses } }
    var unavailable: [LiveReply] { state.withLock { $0.unavailable } }
    var unanswered: [String] { state.withLock { $0.unanswered } }

    /// From the end of the restart command to the first 201 after it.
    var recoveryTime: Duration? {
        state.withLock { state in
            guard let restarted = state.restartedAt, let first = state.firstCreatedAfterRestart else { return nil }
            return restarted.duration(to: first)
        }
    }
}

/// Runs shell commands without blocking a thread of the concurrency pool.
enum Shell {
    /// Runs `command` with `/bin/sh -c`; its exit status, or nil when another waiter reaped it.
    ///
    /// Not with `Process`: on Linux its `isRunning` and `terminationHandler` never saw `pg_ctlcluster`
    /// (which starts a daemon) end, so this spawns and polls `waitpid` itself.
    static func run(_ command: String) async throws -> Int32? {
        let words: [String] = ["/bin/sh", "-c", command]
        let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", nil, nil, arguments, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        var status: Int32 = 0
        while true {
            switch waitpid(pid, &status, WNOHANG) {
            case pid: return (status >> 8) & 0xFF
            case 0: try await Task.sleep(for: .milliseconds(50))
            default:
                if errno == EINTR { continue }
                return nil
            }
        }
    }
}
