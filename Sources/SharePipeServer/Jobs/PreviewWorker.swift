import Foundation
import LinkPreview
import LinkPreviewCore
import Logging
import ServiceLifecycle
import Synchronization

/// Fetches the previews of new links in the background: takes due jobs from the database, runs at
/// most ``ServerConfiguration/previewWorkers`` at once, retries failures with exponential backoff and
/// jitter, postpones the jobs of hosts that keep failing (``HostCircuitBreaker``), and stops taking
/// jobs when the server shuts down (running ones finish). What a failure leads to is
/// ``PreviewJobFailure``'s to say.
final class PreviewWorker: Service, Sendable {
    let storage: any Storage
    let provider: MetadataProvider
    let configuration: ServerConfiguration
    let metrics: ServerMetrics
    let logger: Logger
    private let wakeUp = WakeUpSignal()
    private let breaker: Mutex<HostCircuitBreaker>

    init(
        storage: any Storage,
        provider: MetadataProvider,
        configuration: ServerConfiguration,
        metrics: ServerMetrics,
        logger: Logger
    ) {
        self.metrics = metrics
        self.storage = storage
        self.provider = provider
        self.configuration = configuration
        self.logger = logger
        self.breaker = Mutex(HostCircuitBreaker(settings: configuration.workers.circuitBreaker))
    }

    /// Tells the worker a job was queued, so it does not wait for its next poll.
    func notify() { wakeUp.notify() }

    func run() async throws {
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                var running = 0
                while !Task.isShuttingDownGracefully && !Task.isCancelled {
                    if running >= configuration.workers.previewWorkers {
                        _ = await group.next()
                        running -= 1
                        continue
                    }
                    guard let job = await claim() else {
                        await nap()
                        continue
                    }
                    running += 1
                    group.addTask { await self.process(job) }
                }
                await group.waitForAll()
            }
        } onGracefulShutdown: {
            self.wakeUp.notify()
        }
    }

    private func claim() async -> PreviewJob? {
        do {
            return try await storage.claimPreviewJob(lease: configuration.workers.jobLease)
        } catch {
            logger.error("claiming a preview job failed", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// Waits for a wake-up or half a second, whichever comes first.
    private func nap() async {
        await wakeUp.wait(upTo: .milliseconds(500))
    }

    /// Tells the shelves the link is on that it changed. A failure costs only their live update
    /// (they see the change on their next read), so it is logged, not retried.
    private func announce(_ linkID: UUID) async {
        do {
            try await storage.announceLinkChanged(linkID: linkID)
        } catch {
            logger.warning("shelves not told of a preview", metadata: ["link.id": "\(linkID)", "error": "\(error)"])
        }
    }

    func process(_ job: PreviewJob) async {
        // Claimed more often than it may be tried, a job's last run never ended: it took its worker
        // down with it (a crash, the process killed for its memory, or a restart) and was taken again
        // when its lease ran out. A page that does that every time would be fetched after every
        // restart, for ever; like any job, it has its attempts and no more.
        if job.attempts > configuration.workers.maxPreviewAttempts {
            let reason =
                "The preview could not be made in \(configuration.workers.maxPreviewAttempts) attempts "
                + "(the last one never finished)."
            logger.error("preview job abandoned", metadata: ["link.id": "\(job.linkID)", "fetch.url": "\(job.url)"])
            try? await storage.failPreviewJob(job, reason: reason, retryAt: nil)
            await announce(job.linkID)
            metrics.recordPreview("failed")
            return
        }
        let host = Self.breakerKey(job.url)
        if case .wait(let until) = breaker.withLock({ $0.decide(host: host, now: .now) }) {
            let delay = ContinuousClock.now.duration(to: until)
            let at = Date().addingTimeInterval(Double(delay.components.seconds) + 1)
            try? await storage.postponePreviewJob(job, until: at)
            metrics.recordPreview("postponed")
            return
        }
        do {
            let report = try await provider.preview(for: job.url)
            var expires = report.expires
            if report.source == .stale {
                // The site failed for now and the fetcher kept the preview it had: nothing is learnt
                // about the host's health here, and the link is asked about again in an hour, not at
                // the failure's one-minute expiry (a down site's links would be fetched every minute).
                expires = Date().addingTimeInterval(Self.staleRefreshInterval)
                metrics.recordFetch(source: "job", result: "stale")
            } else {
                breaker.withLock { $0.record(host: host, healthy: true, now: .now) }
                metrics.recordFetch(source: "job", result: report.metadata.wall == nil ? "ok" : "wall")
            }
            try await storage.completePreviewJob(job, metadata: report.metadata, expires: expires)
            await announce(job.linkID)
            metrics.recordPreview(report.metadata.wall == nil ? "ready" : "wall")
            logger.debug("preview ready", metadata: ["link.id": "\(job.linkID)", "fetch.url": "\(job.url)"])
        } catch {
            let failure = PreviewJobFailure(
                after: error,
                attempts: job.attempts,
                maxAttempts: configuration.workers.maxPreviewAttempts,
                now: Date(),
                backoff: Self.backoff(attempt:)
            )
            if let answered = failure.hostAnswered {
                // Only the link's own host is judged. One that redirected answered; where the redirect
                // led is not counted against anyone: blaming the short-link host would let five links
                // to one failing page close it for everyone, and blaming the target would let anyone
                // who can redirect close another site's circuit while their own jobs never wait.
                // (The same host on another port or scheme, `http` → `https`, is still this site.)
                let failedAt = (error as? LinkPreviewError)?.url?.host()?.lowercased()
                let failedElsewhere = failedAt.map { $0 != job.url.host()?.lowercased() } ?? false
                breaker.withLock { $0.record(host: host, healthy: answered || failedElsewhere, now: .now) }
            }
            if let result = failure.fetchResult { metrics.recordFetch(source: "job", result: result) }
            if failure.isInternal {
                logger.error("preview job failed", metadata: ["link.id": "\(job.linkID)", "error": "\(error)"])
            }
            switch failure.action {
            case .postpone(let until):
                try? await storage.postponePreviewJob(job, until: until)
                metrics.recordPreview("postponed")
            case .retry(let at):
                try? await storage.failPreviewJob(job, reason: failure.reason, retryAt: at)
                metrics.recordPreview("retry")
            case .fail:
                try? await storage.failPreviewJob(job, reason: failure.reason, retryAt: nil)
                await announce(job.linkID)
                metrics.recordPreview("failed")
            }
        }
    }

    /// The circuit breaker's key for a URL: its host and port (`example.com:443`). With the port, a
    /// link to `https://victim.example:80/`, which fails its TLS handshake however healthy the site
    /// is, opens no circuit for the site's real address.
    static func breakerKey(_ url: URL) -> String {
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        return (url.host()?.lowercased() ?? "") + ":" + String(port)
    }

    /// When a link whose refresh got the stale preview (the site failing for now) is refreshed again.
    static let staleRefreshInterval: TimeInterval = 3600

    /// Seconds before attempt `attempt + 1`: 2^attempt × 5 s, capped at an hour, with ±25 % jitter.
    static func backoff(attempt: Int) -> TimeInterval {
        let base = min(3600, 5 * pow(2, Double(max(0, attempt - 1))))
        return base * Double.random(in: 0.75...1.25)
    }
}
