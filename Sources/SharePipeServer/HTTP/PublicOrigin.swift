import Foundation
import Synchronization

/// Where users reach this server, for the absolute URLs it writes into what others keep: a public
/// page's `og:url`, canonical and oEmbed links, the oEmbed provider URL and the URL
/// `PUT /v1/shares/{id}/public` answers.
///
/// It is ``ServerConfiguration/Listener/publicURL`` when set, else the address the server listens on
/// (`http://127.0.0.1:8080`; a wildcard address, `0.0.0.0` or `::`, is written as the loopback
/// address, the one sure to reach it). It is never the request's `Host`: a public page is cached
/// publicly, and a request sent with `Host: evil.example` would otherwise put
/// `http://evil.example/s/…` into the copy every later reader of that cache gets.
final class PublicOrigin: Sendable {
    private let configured: String?
    private let listenHost: String
    private let port: Mutex<Int>

    init(configuration: ServerConfiguration) {
        configured = configuration.listener.publicURL.map { url in
            let text = url.absoluteString
            return text.hasSuffix("/") ? String(text.dropLast()) : text
        }
        listenHost = configuration.listener.reachableHostInURL
        port = Mutex(configuration.listener.port)
    }

    /// Records the port the server was given when it asked for any (port 0).
    func listening(on port: Int?) {
        guard let port else { return }
        self.port.withLock { if $0 == 0 { $0 = port } }
    }

    /// The base of the server's absolute URLs, without a trailing slash (`https://share.example.com`).
    var base: String {
        configured ?? "http://\(listenHost):\(port.withLock { $0 })"
    }
}
