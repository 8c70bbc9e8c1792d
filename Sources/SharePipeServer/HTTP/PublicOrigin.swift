public import Foundation
import Hummingbird

/// Where this server says it is reached, in the links it hands out (public pages, `og:url`, oEmbed):
/// ``ServerConfiguration/publicURL`` when set, else the request's own host.
public struct PublicOrigin: Sendable {
    /// The configured public URL, if any.
    public var publicURL: URL?
    /// The address the server listens on, for a request that names no host.
    public var listenHost: String
    public var listenPort: Int

    public init(publicURL: URL?, listenHost: String, listenPort: Int) {
        self.publicURL = publicURL
        self.listenHost = listenHost
        self.listenPort = listenPort
    }

    /// The origin for links in the answer to `request`, without a trailing slash.
    func base(for request: Request) -> String {
        if let url = publicURL?.absoluteString {
            return url.hasSuffix("/") ? String(url.dropLast()) : url
        }
        return "http://" + (request.head.authority ?? "\(listenHost):\(listenPort)")
    }
}
