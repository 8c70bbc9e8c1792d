import AsyncHTTPClient
import Foundation
import LinkPreviewCore
import NIOCore

extension MetadataProvider {
    /// Fetches (or revalidates) `url` within `deadline`, reads subresources, and caches the outcome,
    /// failures included, unless the run was cancelled (every caller of the shared fetch left): then
    /// what it got is not the site's answer (a page cut short by the closed connection, the closing
    /// taken for a malformed response, probes that failed for being stopped) and nothing is stored.
    func fetchAndCache(
        _ url: URL,
        key: String,
        revalidating stale: CachedPreview?,
        deadline: ContinuousClock.Instant
    ) async throws -> PreviewReport {
        let now = Date()
        do {
            let page = try await withDeadline(deadline, url: url) {
                try await self.fetchPage(url, revalidating: stale, deadline: deadline)
            }
            // A page cut short after its head is kept for the shortest time, and without validators.
            let expires =
                page.isCutShort
                ? now.addingTimeInterval(configuration.cacheLifetime.lowerBound)
                : CacheLifetime.expiry(
                    responseHeaders: page.headers,
                    storedAt: now,
                    bounds: configuration.cacheLifetime
                )
            var metadata: LinkMetadata
            let source: PreviewReport.Source
            if page.notModified, let cached = stale?.metadata {
                metadata = cached
                source = .revalidated
            } else {
                metadata = page.metadata
                source = .network
                if configuration.includeSubresources && page.isDocument && metadata.wall == nil {
                    let subresourceDeadline = min(deadline, .now + configuration.policy.timeouts.subresources)
                    metadata = await SubresourceReader(fetcher: fetcher, logger: logger)
                        .enrich(metadata, deadline: subresourceDeadline)
                }
            }
            let entry = CachedPreview(
                metadata: metadata,
                failure: nil,
                storedAt: now,
                expiresAt: expires,
                etag: page.isCutShort ? nil : page.header("etag") ?? (page.notModified ? stale?.etag : nil),
                lastModified: page.isCutShort
                    ? nil : page.header("last-modified") ?? (page.notModified ? stale?.lastModified : nil),
                validatorURL: page.finalURL
            )
            guard !Task.isCancelled else { throw LinkPreviewError.cancelled(url) }
            await cache?.store(entry, forKey: key)
            return PreviewReport(
                metadata: metadata,
                redirects: page.redirects,
                statusCode: page.statusCode,
                bytesRead: page.bytesRead,
                contentLength: page.contentLength,
                source: source,
                expires: expires
            )
        } catch let error as LinkPreviewError {
            if Task.isCancelled { throw LinkPreviewError.cancelled(url) }
            if let ttl = configuration.negativeCaching.ttl(for: error) {
                let entry = CachedPreview(
                    metadata: nil,
                    failure: CachedFailure(error),
                    storedAt: now,
                    expiresAt: now.addingTimeInterval(ttl),
                    etag: nil,
                    lastModified: nil,
                    validatorURL: nil
                )
                await cache?.store(entry, forKey: key)
            }
            throw error
        }
    }

    /// Runs `operation`, throwing ``LinkPreviewError/Code/timedOut`` (and cancelling it) when
    /// `deadline` passes first, with one message whichever timer notices first: this one, or the
    /// fetch's own, set to the same instant. The message names `timeout` (default: the
    /// configuration's).
    func withDeadline<T: Sendable>(
        _ deadline: ContinuousClock.Instant,
        url: URL,
        timeout: Duration? = nil,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let timedOut = LinkPreviewError(
            .timedOut,
            "The site took longer than \((timeout ?? configuration.timeout).spoken) to answer.",
            url: url
        )
        do {
            guard let value = try await Deadline.run(until: deadline, on: fetcher.eventLoopGroup.any(), operation)
            else { throw timedOut }
            return value
        } catch is CancellationError {
            throw LinkPreviewError.cancelled(url)
        } catch let error as LinkPreviewError where error.code == .timedOut && ContinuousClock.now >= deadline {
            throw timedOut
        }
    }
}
