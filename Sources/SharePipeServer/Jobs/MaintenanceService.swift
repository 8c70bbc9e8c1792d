import Foundation
import Logging
import ServiceLifecycle

/// The server's housekeeping, every ``ServerConfiguration/maintenanceInterval``: queues refreshes
/// of expired previews (at most ``ServerConfiguration/refreshesPerRound`` a round), finishes the shelf
/// items a change of membership or switch queued and did not recompute (``shelfRefreshesPerRound``
/// links a round), forgets the
/// stored responses of idempotency keys older than ``ServerConfiguration/idempotencyKeyRetention``
/// (the keys and their shares stay, so a late retry is still a replay), deletes expired web
/// sessions, prunes the fetcher's database cache, drops shelf events older than 7 days, and removes
/// uploads no share references after ``ServerConfiguration/Uploads/unsharedRetention`` with the
/// blobs no upload names any more. Every statement is safe to run from several server processes at once.
struct MaintenanceService: Service {
    let storage: any Storage
    let configuration: ServerConfiguration
    let worker: PreviewWorker
    let logger: Logger

    /// Rounds between two looks for blob bytes no row names (the first round looks): it lists every
    /// file, and only a crash leaves such bytes.
    static let roundsBetweenStrayByteSweeps = 60

    /// Queued shelf items recomputed per round, in transactions of a thousand.
    static let shelfRefreshesPerRound = 50_000

    func run() async throws {
        var round = 0
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            await runOnce(lookingForStrayBytes: round % Self.roundsBetweenStrayByteSweeps == 0)
            round += 1
            try? await gracefulShutdownSleep(configuration.retention.maintenanceInterval)
        }
    }

    /// One round. Each step runs whatever the others did: one that fails is logged and tried again
    /// next round, and does not keep the rest from running.
    func runOnce(lookingForStrayBytes: Bool = true) async {
        let refreshes = await step("refreshes") {
            try await storage.enqueueRefreshes(limit: configuration.retention.refreshesPerRound)
        }
        if refreshes > 0 { worker.notify() }
        let shelves = await step("shelf refreshes") { try await storage.drainShelfRefreshQueue(limit: Self.shelfRefreshesPerRound) }
        let keys = await step("idempotency keys") {
            let retention = Double(configuration.retention.idempotencyKeyRetention.components.seconds)
            return try await storage.forgetIdempotencyResponses(createdBefore: Date().addingTimeInterval(-retention))
        }
        let sessions = await step("sessions") { try await storage.deleteExpiredSessions() }
        let cached = await step("preview cache") {
            let cacheAge = Double(configuration.retention.previewCacheRetention.components.seconds)
            return try await storage.prunePreviewCache(storedBefore: Date().addingTimeInterval(-cacheAge))
        }
        _ = await step("shelf events") {
            try await storage.pruneShelfEvents(before: Date().addingTimeInterval(-7 * 24 * 3600))
        }
        var blobs = 0
        let uploads = await step("uploads") {
            let retention = Double(configuration.uploads.unsharedRetention.components.seconds)
            let swept = try await storage.sweepUploads(
                untouchedSince: Date().addingTimeInterval(-retention),
                lookingForStrayBytes: lookingForStrayBytes
            )
            blobs = swept.blobs
            return swept.uploads
        }
        if refreshes + shelves + keys + sessions + cached + uploads + blobs > 0 {
            logger.info(
                "maintenance",
                metadata: [
                    "refreshes.queued": "\(refreshes)", "shelf_items.recomputed": "\(shelves)",
                    "idempotency_keys.forgotten": "\(keys)",
                    "sessions.deleted": "\(sessions)", "preview_cache.deleted": "\(cached)",
                    "uploads.removed": "\(uploads)", "blobs.removed": "\(blobs)",
                ]
            )
        }
    }

    /// Runs one step of a round: how many rows it changed, or 0 when it failed (logged) or the server
    /// is stopping.
    private func step(_ name: String, _ work: () async throws -> Int) async -> Int {
        do {
            return try await work()
        } catch is CancellationError {
            return 0  // the server is stopping (or never started): nothing failed
        } catch {
            logger.error("maintenance step failed", metadata: ["step": "\(name)", "error": "\(error)"])
            return 0
        }
    }
}

/// Sleeps for `duration`, or less when the server starts shutting down.
private func gracefulShutdownSleep(_ duration: Duration) async throws {
    try await cancelWhenGracefulShutdown { try await Task.sleep(for: duration) }
}
