public import Foundation
public import LinkPreviewCore

/// One cache entry: the metadata of a link (or why there is none), when it was stored, until when it
/// is fresh, and the validators to revalidate it with.
///
/// A positive entry has ``metadata``; a negative entry has ``failure`` instead, kept for the time
/// ``NegativeCaching`` gives its code. An entry past ``expiresAt`` is *stale*, not gone: caches still
/// return it, and the provider revalidates it (`If-None-Match` with ``etag``, `If-Modified-Since` with
/// ``lastModified``), reusing it on a `304 Not Modified`. Caches drop entries only to stay within their
/// bounds or when they are older than their `retention` past ``expiresAt``.
///
/// ```swift
/// let now = Date()
/// let entry = CachedPreview(
///     metadata: metadata,
///     storedAt: now,
///     expiresAt: CacheLifetime.expiry(responseHeaders: headers, storedAt: now),
///     etag: "\"v1\"",
///     validatorURL: finalURL
/// )
/// await cache.store(entry, forKey: key)
/// if let cached = await cache.entry(forKey: key), cached.isFresh(at: Date()) { return cached.metadata }
/// ```
///
/// The JSON form has the keys `metadata`, `failure`, `storedAt`, `expiresAt`, `etag`, `lastModified`,
/// `validatorURL` and `staleSince`; absent optionals are omitted and the dates are numbers of seconds
/// since 1970-01-01 UTC, whatever the encoder's date strategy.
public struct CachedPreview: Sendable, Hashable {
    /// The metadata, or `nil` for a negative entry.
    public var metadata: LinkMetadata?
    /// Why there is no metadata, for a negative entry.
    public var failure: CachedFailure?
    /// When the entry was stored (the response was received).
    public var storedAt: Date
    /// When the entry stops being fresh.
    public var expiresAt: Date
    /// The response's `ETag`, for `If-None-Match`.
    public var etag: String?
    /// The response's `Last-Modified` as sent, for `If-Modified-Since`.
    public var lastModified: String?
    /// The URL the validators belong to: the final URL after redirects, which is the one to revalidate.
    public var validatorURL: URL?
    /// For an entry kept after the site failed to answer (the provider served its stale metadata
    /// instead of the error, see ``MetadataProvider/Configuration/staleIfError``): when the metadata
    /// first went stale. `nil` otherwise.
    public var staleSince: Date?

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - metadata: The metadata, or `nil` for a negative entry.
    ///   - failure: Why there is no metadata, for a negative entry.
    ///   - storedAt: When the response was received.
    ///   - expiresAt: When the entry stops being fresh (see ``CacheLifetime`` and ``NegativeCaching``).
    ///   - etag: The response's `ETag`.
    ///   - lastModified: The response's `Last-Modified`, as sent.
    ///   - validatorURL: The URL the validators belong to.
    ///   - staleSince: For metadata kept after a failure, when it first went stale.
    public init(
        metadata: LinkMetadata?,
        failure: CachedFailure? = nil,
        storedAt: Date,
        expiresAt: Date,
        etag: String? = nil,
        lastModified: String? = nil,
        validatorURL: URL? = nil,
        staleSince: Date? = nil
    ) {
        self.metadata = metadata
        self.failure = failure
        self.storedAt = storedAt
        self.expiresAt = expiresAt
        self.etag = etag
        self.lastModified = lastModified
        self.validatorURL = validatorURL
        self.staleSince = staleSince
    }

    /// Whether the entry may be used without asking the site again at `date`.
    public func isFresh(at date: Date) -> Bool {
        date < expiresAt
    }

    /// Whether a stale entry can be revalidated with a conditional request: it has metadata and a
    /// validator (`ETag` or `Last-Modified`). Negative entries are refetched, not revalidated.
    public var canRevalidate: Bool {
        metadata != nil && (etag != nil || lastModified != nil)
    }

    /// How long past ``expiresAt`` the caches of this package keep a stale entry unless told otherwise:
    /// 7 days.
    public static let defaultRetention: TimeInterval = 7 * 24 * 60 * 60

    /// Whether a cache with the given retention still keeps the entry at `date`: until `retention`
    /// seconds past ``expiresAt``.
    public func isRetained(at date: Date, retention: TimeInterval) -> Bool {
        date < expiresAt.addingTimeInterval(max(0, retention))
    }
}
