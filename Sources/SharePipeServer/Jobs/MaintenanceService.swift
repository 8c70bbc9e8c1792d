import Foundation
import Logging
import ServiceLifecycle

/// The server's housekeeping, every ``ServerConfiguration/maintenanceInterval``: queues refreshes
/// of expired previews (at most ``ServerConfiguration/refreshesPerRound`` a round), forgets the
/// stored responses of idempotency keys older than ``ServerConfiguration/idempotencyKeyRetention``
/// (the keys and their shares stay, so a late retry is still a replay), deletes expired web
/// sessions, prunes the fetcher's database cache and drops shelf events older than 7 days. Every statement is safe to run from several
/// server processes at once.
struct MaintenanceService: Service {
    let storage: any Storage
    let configuration: ServerConfiguration
    let worker: PreviewWorker
    let logger: Logger

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            await runOnce()
            try? await gracefulShutdownSleep(configuration.maintenanceInterval)
        }
    }

    /// One round; failures are logged and retried next round.
    func runOnce() async {
        do {
            let refreshes = try await storage.enqueueRefreshes(limit: configuration.refreshesPerRound)
            if refreshes > 0 { worker.notify() }
            let retention = Double(configuration.idempotencyKeyRetention.components.seconds)
            let keys = try await storage.forgetIdempotencyResponses(
                createdBefore: Date().addingTimeInterval(-retention)
            )
            let sessions = try await storage.deleteExpiredSessions()
            let cacheAge = Double(configuration.previewCacheRetention.components.seconds)
            let cached = try await storage.prunePreviewCache(storedBefore: Date().addingTimeInterval(-cacheAge))
            try await storage.pruneShelfEvents(before: Date().addingTimeInterval(-7 * 24 * 3600))
            if refreshes + keys + sessions + cached > 0 {
                logger.info(
                    "maintenance",
                    metadata: [
                        "refreshes.queued": "\(refreshes)", "idempotency_keys.forgotten": "\(keys)",
                        "sessions.deleted": "\(sessions)", "preview_cache.deleted": "\(cached)",
                    ]
                )
            }
        } catch is CancellationError {
            // The server is stopping (or never started): nothing failed.
        } catch {
            logger.error("maintenance failed", metadata: ["error": "\(error)"])
        }
    }
}

/// Sleeps for `duration`, or less when the server starts shutting down.
private func gracefulShutdownSleep(_ duration: Duration) async throws {
    try await cancelWhenGracefulShutdown { try await Task.sleep(for: duration) }
}
