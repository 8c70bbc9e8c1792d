public import Foundation
import LinkPreviewCore

/// How long a preview stays fresh, from the response's headers, as a shared cache reads them
/// (RFC 9111 §4.2).
///
/// The freshness lifetime is, in order of precedence:
///
/// 1. the lower bound when `Cache-Control` has `no-store`, `no-cache` or `private` (unqualified forms;
///    `no-cache="Set-Cookie"` only concerns header fields, which a preview does not keep). The page
///    asks not to be reused, but a preview is metadata the server derived, not the page: it is kept
///    for the lower bound so that a burst of shares of one link makes one fetch, and revalidated after;
/// 2. `s-maxage`, since this is a shared cache, else `max-age`;
/// 3. `Expires` minus `Date` (minus the time of storing when there is no valid `Date`); an `Expires`
///    that is not a valid date means "already expired" (RFC 9111 §5.3);
/// 4. heuristically, 10 % of the time between `Last-Modified` and `Date` (or the time of storing);
/// 5. else the lower bound.
///
/// An `Age` header (the time the response already spent in caches upstream) is subtracted. The result
/// is clamped into `bounds`: no preview is refetched more often than the lower bound or kept fresh
/// longer than the upper one. Header names are case-insensitive; malformed values are ignored; dates
/// are HTTP-dates in any of the three formats of RFC 9110 §5.6.7, read with English names whatever the
/// locale.
///
/// ```swift
/// let storedAt = Date()
/// let expiresAt = CacheLifetime.expiry(
///     responseHeaders: [(name: "Cache-Control", value: "public, max-age=86400")],
///     storedAt: storedAt
/// )
/// // storedAt + 1 day
/// ```
public struct CacheLifetime: Sendable {
    /// The bounds a fetcher uses unless configured otherwise: one hour to seven days.
    public static let defaultBounds: ClosedRange<TimeInterval> = 3_600...604_800

    /// When a response received at `storedAt` stops being fresh.
    ///
    /// - Parameters:
    ///   - responseHeaders: The response's header fields, in order, names in any case.
    ///   - storedAt: When the response was received.
    ///   - bounds: The shortest and longest freshness lifetimes to allow; default 1 h … 7 d.
    /// - Returns: `storedAt` plus the freshness lifetime, clamped into `bounds`.
    public static func expiry(
        responseHeaders: [(name: String, value: String)],
        storedAt: Date,
        bounds: ClosedRange<TimeInterval> = defaultBounds
    ) -> Date {
        let lifetime = freshnessLifetime(responseHeaders: responseHeaders, storedAt: storedAt)
        let clamped = min(max(lifetime ?? bounds.lowerBound, bounds.lowerBound), bounds.upperBound)
        return storedAt.addingTimeInterval(clamped)
    }

    /// The remaining freshness lifetime in seconds, unclamped (never negative), or `nil` when the
    /// headers say nothing about it or ask for no reuse.
    static func freshnessLifetime(responseHeaders: [(name: String, value: String)], storedAt: Date) -> TimeInterval? {
        let headers = ResponseHeaders(responseHeaders)
        let cacheControl = CacheControl(headers.values("cache-control"))
        if cacheControl.hasUnqualified("no-store") || cacheControl.hasUnqualified("no-cache")
            || cacheControl.hasUnqualified("private")
        {
            return nil
        }
        let date = headers.date("date", reference: storedAt) ?? storedAt
        let lifetime: TimeInterval
        if let seconds = cacheControl.deltaSeconds("s-maxage") ?? cacheControl.deltaSeconds("max-age") {
            lifetime = TimeInterval(seconds)
        } else if headers.first("expires") != nil {
            let expiry = headers.date("expires", reference: storedAt) ?? .distantPast
            lifetime = max(0, expiry.timeIntervalSince(date))
        } else if let lastModified = headers.date("last-modified", reference: storedAt), lastModified < date {
            lifetime = date.timeIntervalSince(lastModified) / 10
        } else {
            return nil
        }
        return max(0, lifetime - headers.age)
    }
}

/// The few response headers freshness depends on, looked up by lowercased name.
private struct ResponseHeaders {
    private let fields: [(name: String, value: String)]

    init(_ fields: [(name: String, value: String)]) {
        self.fields = fields
    }

    /// The values of the fields named `name` (lowercase), trimmed.
    func values(_ name: String) -> [String] {
        fields.filter { $0.name.equalsASCIICaseInsensitive(name) }.map(\.value.trimmingHTTPWhitespace)
    }

    /// The value of the first field named `name` (lowercase), trimmed.
    func first(_ name: String) -> String? {
        fields.first { $0.name.equalsASCIICaseInsensitive(name) }?.value.trimmingHTTPWhitespace
    }

    /// The first `name` header as an HTTP-date, or `nil` when absent or malformed.
    func date(_ name: String, reference: Date) -> Date? {
        first(name).flatMap { HTTPDate.parse($0, reference: reference) }
    }

    /// The `Age` header's seconds, or 0 when absent or malformed.
    var age: TimeInterval {
        guard let text = first("age"), !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return 0
        }
        return TimeInterval(Int(text).map { min($0, CacheControl.maximumDelta) } ?? CacheControl.maximumDelta)
    }
}
