public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// How ``ShareUploader`` and ``DeviceSignIn`` send a request and read its answer. The default is
/// ``URLSessionTransport``; a program that links another HTTP client can pass its own (the Linux
/// command line sends over AsyncHTTPClient, since FoundationNetworking keeps a core busy while a
/// server is silent).
///
/// A transport sends the request as it is given (method, headers, body), follows no redirect (a 3xx
/// is an answer), treats the request's `timeoutInterval` as the longest silence, and gives up after
/// `limit` in all, however slowly the answer trickles. When no answer comes it throws a `URLError`
/// with the code `URLSession` would use (`.timedOut`, `.cannotConnectToHost`, `.cannotFindHost`,
/// `.secureConnectionFailed`, `.networkConnectionLost`, `.cancelled`…): the uploader words that code
/// for the user. Cancelling the calling task ends the exchange.
public protocol HTTPTransport: Sendable {
    /// The answer to `request`: its body and response.
    func send(_ request: URLRequest, within limit: Duration) async throws -> (Data, HTTPURLResponse)
}

/// ``HTTPTransport`` over `URLSession`: the one an app and its share extension use.
public struct URLSessionTransport: HTTPTransport {
    /// The session requests go through.
    public let session: URLSession

    /// A transport over `session`; by default one ephemeral session (no cache, no cookies, no redirects
    /// followed) shared by every transport, so an app that makes an uploader per drain does not pile up
    /// sessions. A session of your own should not follow redirects either.
    public init(session: URLSession? = nil) {
        self.session = session ?? RedirectRefusal.session
    }

    public func send(_ request: URLRequest, within limit: Duration) async throws -> (Data, HTTPURLResponse) {
        let (body, response) = try await BoundedExchange.data(for: request, in: session, within: limit)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (body, http)
    }
}
