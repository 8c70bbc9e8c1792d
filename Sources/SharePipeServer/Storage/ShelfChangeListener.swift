import Logging
import ServiceLifecycle

/// On PostgreSQL: listens for the shelf changes every server process announces and wakes this
/// process's live-change streams; reconnects after a lost connection. On SQLite it has nothing to do
/// (and only waits for the server to stop).
struct ShelfChangeListener: Service {
    let database: Database
    let logger: Logger

    func run() async throws {
        guard database.dialect == .postgres else {
            // A service that returns stops the server: stay until it shuts down.
            try? await gracefulShutdown()
            return
        }
        let hub = database.shelfChanges
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown {
                    try await database.listenForShelfChanges { user in hub.notify(user) }
                }
            } catch is CancellationError {
                return
            } catch {
                if Task.isShuttingDownGracefully { return }
                logger.warning("listening for shelf changes failed; retrying", metadata: ["error": "\(error)"])
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }
}
