import Foundation
import LinkPreview
import Testing

struct CacheLifetimeTests {
    /// 2023-11-14 22:13:20 UTC.
    static let storedAt = Date(timeIntervalSince1970: 1_700_000_000)
    static let storedAtHTTP = "Tue, 14 Nov 2023 22:13:20 GMT"
    /// Wide enough that the table shows the lifetime itself.
    static let wide: ClosedRange<TimeInterval> = 60...100_000_000

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var headers: [(name: String, value: String)]
        /// The expected lifetime with ``wide`` bounds.
        var lifetime: TimeInterval

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "max-age", headers: [("Cache-Control", "public, max-age=7200")], lifetime: 7_200),
        Case(name: "names and directives in any case", headers: [("CACHE-control", "Max-Age=7200")], lifetime: 7_200),
        Case(name: "quoted max-age", headers: [("Cache-Control", #"max-age="7200""#)], lifetime: 7_200),
        Case(
            name: "s-maxage over max-age",
            headers: [("Cache-Control", "max-age=7200, s-maxage=10000")],
            lifetime: 10_000
        ),
        Case(name: "s-maxage first", headers: [("Cache-Control", "s-maxage=10000,max-age=7200")], lifetime: 10_000),
        Case(
            name: "max-age over Expires",
            headers: [("Expires", "Wed, 15 Nov 2023 22:13:20 GMT"), ("Cache-Control", "max-age=7200")],
            lifetime: 7_200
        ),
        Case(
            name: "fields of several lines",
            headers: [("Cache-Control", "public"), ("cache-control", "max-age=7200")],
            lifetime: 7_200
        ),
        Case(
            name: "Expires minus Date",
            headers: [("Date", storedAtHTTP), ("Expires", "Wed, 15 Nov 2023 22:13:20 GMT")],
            lifetime: 86_400
        ),
        Case(
            // The server's clock is 1000 s behind ours: the lifetime is what the server meant.
            name: "Expires minus a skewed Date",
            headers: [("Date", "Tue, 14 Nov 2023 21:56:40 GMT"), ("Expires", "Tue, 14 Nov 2023 23:56:40 GMT")],
            lifetime: 7_200
        ),
        Case(name: "Expires without Date", headers: [("Expires", "Wed, 15 Nov 2023 00:13:20 GMT")], lifetime: 7_200),
        Case(
            name: "Expires in RFC 850 form",
            headers: [("Expires", "Wednesday, 15-Nov-23 00:13:20 GMT")],
            lifetime: 7_200
        ),
        Case(name: "Expires in asctime form", headers: [("Expires", "Wed Nov 15 00:13:20 2023")], lifetime: 7_200),
        Case(name: "Expires in the past", headers: [("Expires", "Mon, 13 Nov 2023 22:13:20 GMT")], lifetime: 60),
        Case(
            name: "Expires 0 means expired",
            headers: [("Expires", "0"), ("Last-Modified", "Tue, 14 Nov 2023 00:00:00 GMT")],
            lifetime: 60
        ),
        Case(
            name: "heuristic: 10 % of the age of Last-Modified",
            headers: [("Date", storedAtHTTP), ("Last-Modified", "Sat, 04 Nov 2023 22:13:20 GMT")],
            lifetime: 86_400
        ),
        Case(
            name: "heuristic without Date",
            headers: [("Last-Modified", "Sat, 04 Nov 2023 22:13:20 GMT")],
            lifetime: 86_400
        ),
        Case(
            name: "Last-Modified in the future",
            headers: [("Last-Modified", "Fri, 24 Nov 2023 22:13:20 GMT")],
            lifetime: 60
        ),
        Case(name: "no-store", headers: [("Cache-Control", "max-age=7200, no-store")], lifetime: 60),
        Case(name: "no-cache", headers: [("Cache-Control", "no-cache, max-age=7200")], lifetime: 60),
        Case(name: "private", headers: [("Cache-Control", "private, max-age=7200")], lifetime: 60),
        Case(
            name: "no-store on another line",
            headers: [("Cache-Control", "max-age=7200"), ("Cache-Control", "no-store")],
            lifetime: 60
        ),
        Case(
            name: "qualified no-cache and private concern fields only",
            headers: [("Cache-Control", #"no-cache="Set-Cookie, X-Id", private="Authorization", max-age=7200"#)],
            lifetime: 7_200
        ),
        Case(
            name: "Age is subtracted",
            headers: [("Cache-Control", "max-age=7200"), ("Age", "3600")],
            lifetime: 3_600
        ),
        Case(
            name: "older than its lifetime",
            headers: [("Cache-Control", "max-age=7200"), ("Age", "9000")],
            lifetime: 60
        ),
        Case(name: "nothing", headers: [("Content-Type", "text/html")], lifetime: 60),
        Case(name: "no headers", headers: [], lifetime: 60),
        Case(name: "garbage max-age", headers: [("Cache-Control", "max-age=soon")], lifetime: 60),
        Case(name: "negative max-age", headers: [("Cache-Control", "max-age=-5")], lifetime: 60),
        Case(name: "max-age with a fraction", headers: [("Cache-Control", "max-age=1.5e9")], lifetime: 60),
        Case(name: "first valid max-age", headers: [("Cache-Control", "max-age=x, max-age=600")], lifetime: 600),
        Case(
            name: "garbage max-age falls back to Expires",
            headers: [("Cache-Control", "max-age=soon"), ("Expires", "Wed, 15 Nov 2023 00:13:20 GMT")],
            lifetime: 7_200
        ),
        Case(name: "punctuation soup", headers: [("Cache-Control", ",, ;= =\"max-age=7200, \t")], lifetime: 60),
        Case(name: "unclosed quote", headers: [("Cache-Control", "no-store=\"x")], lifetime: 60),
        Case(
            name: "garbage Date is ignored",
            headers: [("Date", "yesterday"), ("Expires", "Wed, 15 Nov 2023 00:13:20 GMT")],
            lifetime: 7_200
        ),
        Case(name: "garbage Last-Modified is ignored", headers: [("Last-Modified", "a while ago")], lifetime: 60),
        Case(
            name: "garbage Age is ignored",
            headers: [("Cache-Control", "max-age=7200"), ("Age", "old")],
            lifetime: 7_200
        ),
        Case(
            name: "huge max-age reads as 2^31",
            headers: [("Cache-Control", "max-age=99999999999999999999999")],
            lifetime: 100_000_000
        ),
    ]

    @Test(arguments: cases)
    func freshnessLifetime(_ test: Case) {
        let expiry = CacheLifetime.expiry(responseHeaders: test.headers, storedAt: Self.storedAt, bounds: Self.wide)
        #expect(expiry.timeIntervalSince(Self.storedAt) == test.lifetime)
    }

    @Test func clampsIntoTheDefaultBounds() {
        func lifetime(_ cacheControl: String) -> TimeInterval {
            CacheLifetime.expiry(responseHeaders: [("Cache-Control", cacheControl)], storedAt: Self.storedAt)
                .timeIntervalSince(Self.storedAt)
        }
        #expect(CacheLifetime.defaultBounds == 3_600...604_800)
        #expect(lifetime("max-age=10") == 3_600)
        #expect(lifetime("no-store") == 3_600)
        #expect(lifetime("max-age=86400") == 86_400)
        #expect(lifetime("max-age=31536000") == 604_800)
        #expect(lifetime("s-maxage=31536000, max-age=60") == 604_800)
    }

    @Test func clampsIntoGivenBounds() {
        let headers: [(name: String, value: String)] = [("Cache-Control", "max-age=500")]
        let lower = CacheLifetime.expiry(responseHeaders: headers, storedAt: Self.storedAt, bounds: 600...700)
        let upper = CacheLifetime.expiry(responseHeaders: headers, storedAt: Self.storedAt, bounds: 100...400)
        #expect(lower == Self.storedAt.addingTimeInterval(600))
        #expect(upper == Self.storedAt.addingTimeInterval(400))
    }
}
