import AsyncHTTPClient
import Foundation
import LinkPreviewCore
import NIOCore

extension MetadataProvider {
    /// Fetches (or revalidates) `url` within `deadline`, reads subresources, and caches the outcome,
    /// failures included, unless the run was cancelled (every caller of the shared fetch left): then
    /// what it got is not the site's answer (a page cut short by the closed connection, the closing
    /// taken for a malformed response, probes that failed for being stopped) and nothing is stored.
    ///
    /// A failure likely to pass, with a cached preview (`fallback`) stale for less than
    /// ``Configuration/staleIfError``, gives that preview instead (``PreviewReport/Source/stale``);
    /// it is kept, fresh for the failure's negative-caching time.
    func fetchAndCache(
        _ url: URL,
        key: String,
        revalidating stale: CachedPreview?,
        fallback: CachedPreview?,
        deadline: ContinuousClock.Instant
    ) async throws -> PreviewReport {
        let now = Date()
        do {
            let page = try await withDeadline(deadline, url: url) {
                try await self.fetchPage(url, revalidating: stale, deadline: deadline)
            }
            let expires = expiry(of: page, revalidating: stale, now: now)
            // A wall a site puts up for now (a 429 or 503 challenge) is the status's failure as far as
            // the cache goes: it gives way to a stale preview, is remembered as briefly as the status
            // alone would be, and is not revalidated: the page behind it is what lasts.
            var passingWall: LinkPreviewError?
            if page.metadata.wall != nil {
                let status = LinkPreviewError(
                    .httpStatus,
                    "The site answered \(page.statusCode) with a wall.",
                    url: url,
                    statusCode: page.statusCode
                )
                if status.isTransient { passingWall = status }
            }
            if let passingWall, let report = await servingStale(fallback, after: passingWall, key: key, now: now) {
                return report
            }
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
            let keepsValidators = !page.isCutShort && passingWall == nil
            let entry = CachedPreview(
                metadata: metadata,
                failure: nil,
                storedAt: now,
                expiresAt: passingWall.map {
                    min(expires, now.addingTimeInterval(configuration.negativeCaching.ttl(for: $0) ?? 0))
                } ?? expires,
                etag: keepsValidators ? page.header("etag") ?? (page.notModified ? stale?.etag : nil) : nil,
                lastModified: keepsValidators
                    ? page.header("last-modified") ?? (page.notModified ? stale?.lastModified : nil) : nil,
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
                expires: entry.expiresAt
            )
        } catch let error as LinkPreviewError {
            if Task.isCancelled { throw LinkPreviewError.cancelled(url) }
            if let report = await servingStale(fallback, after: error, key: key, now: now) { return report }
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

    /// When a fetched page stops being fresh: the shortest lifetime for a page cut short after its
    /// head; for a 304, the lifetime its headers give, else the one the stale entry had (RFC 9111
    /// §4.3.4: a 304 updates the stored response's headers, it does not replace them); otherwise the
    /// response's `Cache-Control`/`Expires`, clamped.
    private func expiry(of page: FetchedPage, revalidating stale: CachedPreview?, now: Date) -> Date {
        let bounds = configuration.cacheLifetime
        if page.isCutShort { return now.addingTimeInterval(bounds.lowerBound) }
        if page.notModified, let stale,
            CacheLifetime.freshnessLifetime(responseHeaders: page.headers, storedAt: now) == nil
        {
            let lifetime = stale.expiresAt.timeIntervalSince(stale.storedAt)
            return now.addingTimeInterval(min(max(lifetime, bounds.lowerBound), bounds.upperBound))
        }
        return CacheLifetime.expiry(responseHeaders: page.headers, storedAt: now, bounds: bounds)
    }

    /// The stale preview `fallback` as the answer to a failure likely to pass, kept in the cache for the
    /// failure's negative-caching time; nil when there is none, it is stale for too long, or the
    /// failure says something about the link itself.
    private func servingStale(
        _ fallback: CachedPreview?,
        after error: LinkPreviewError,
        key: String,
        now: Date
    ) async -> PreviewReport? {
        guard let fallback, let metadata = fallback.metadata, error.isTransient else { return nil }
        let staleSince = fallback.staleSince ?? fallback.expiresAt
        guard now < staleSince.addingTimeInterval(configuration.staleIfError) else { return nil }
        var kept = fallback
        kept.staleSince = staleSince
        kept.expiresAt = now.addingTimeInterval(max(configuration.negativeCaching.ttl(for: error) ?? 0, 1))
        await cache?.store(kept, forKey: key)
        return PreviewReport(metadata: metadata, source: .stale, expires: kept.expiresAt)
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
