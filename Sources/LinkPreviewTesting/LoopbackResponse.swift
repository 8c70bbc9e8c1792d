/// A request as ``LoopbackHTTPServer`` received it.
public struct LoopbackRequest: Sendable {
    public var method: String
    /// Path and query, as sent.
    public var uri: String
    public var headers: [(name: String, value: String)]

    /// The first value of a header (case-insensitive name).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The `Host` header without its port.
    public var host: String {
        let value = header("host") ?? ""
        if value.hasPrefix("[") { return String(value.prefix { $0 != "]" }.dropFirst()) }
        return String(value.split(separator: ":").first ?? "")
    }

    /// The path without the query.
    public var path: String { String(uri.split(separator: "?", maxSplits: 1).first ?? "") }
}

/// How ``LoopbackHTTPServer`` answers one request.
public struct LoopbackResponse: Sendable {
    /// How the body is sent.
    public enum Body: Sendable {
        /// All at once, with a `Content-Length`.
        case whole([UInt8])
        /// In chunks (chunked encoding unless a `Content-Length` header is given), with a pause before each.
        case chunks([[UInt8]], pause: Duration)
        /// The same chunk again and again until the client goes away (chunked).
        case endless([UInt8])
        /// `prefix`, then nothing more, the connection held open.
        case stall([UInt8])
        /// These bytes exactly, as the whole response (status line and headers included; ``status``
        /// and ``headers`` are ignored), then the connection is closed: for answers the HTTP encoder
        /// would not write (informational heads, bodies delimited by the close, truncated bodies).
        case raw([UInt8])
        /// As ``raw(_:)``, but the connection is then reset (RST) instead of closed, as by a site whose
        /// process died mid-response. Over plain HTTP only.
        case reset([UInt8])
        /// `head` exactly (as ``raw(_:)``), then `filler` again and again, unframed, until the client
        /// goes away: bytes the HTTP parser never hands on as body (after a `101`, inside a chunk
        /// extension).
        case flood(head: [UInt8], filler: [UInt8])
    }

    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Body

    public init(status: Int = 200, headers: [(name: String, value: String)] = [], body: Body = .whole([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A 200 HTML page.
    public static func html(_ text: String, contentType: String = "text/html; charset=utf-8") -> LoopbackResponse {
        LoopbackResponse(headers: [("Content-Type", contentType)], body: .whole(Array(text.utf8)))
    }

    /// A redirect to `location`.
    public static func redirect(_ location: String, status: Int = 302) -> LoopbackResponse {
        LoopbackResponse(status: status, headers: [("Location", location)])
    }

    /// A status with an empty body.
    public static func status(_ status: Int) -> LoopbackResponse {
        LoopbackResponse(status: status)
    }

    /// `text` sent `count` times, one chunk each, `pause` before each: a slow drip that never goes
    /// silent for long.
    public static func drip(
        _ text: String,
        count: Int,
        every pause: Duration,
        contentType: String
    ) -> LoopbackResponse {
        LoopbackResponse(
            headers: [("Content-Type", contentType)],
            body: .chunks(Array(repeating: Array(text.utf8), count: count), pause: pause)
        )
    }

    /// Bytes of a given type.
    public static func bytes(_ bytes: [UInt8], contentType: String?) -> LoopbackResponse {
        LoopbackResponse(headers: contentType.map { [("Content-Type", $0)] } ?? [], body: .whole(bytes))
    }
}
