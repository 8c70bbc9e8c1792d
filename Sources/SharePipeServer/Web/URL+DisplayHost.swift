import Foundation

extension URL {
    /// What a card names a link by when its preview gives no title or site name: the host, else (for a
    /// URL without one) the whole URL.
    var displayHost: String { host() ?? absoluteString }
}
