public import Foundation

/// The answer to `POST /v1/shares` (201, and the same body again on an idempotent replay): the share
/// recorded and the link it shares.
///
/// ```swift
/// let body = try APIJSON.encoder().encode(ShareCreated(share: share, link: link))
/// ShareCreated.shareID(in: body) == share.id   // true
/// ```
public struct ShareCreated: Sendable, Hashable, Codable {
    /// The share recorded.
    public var share: Share
    /// The link it shares, with its preview as far as it has gone; `nil` for files alone.
    public var link: Link?

    /// Creates the answer.
    /// - Parameters:
    ///   - share: The share recorded.
    ///   - link: The link it shares; `nil` for files alone.
    public init(share: Share, link: Link?) {
        self.share = share
        self.link = link
    }

    /// The id of the share a body names (`share.id`), or `nil` when it is no such body.
    ///
    /// Only `share.id` is read, so a body whose other members this version cannot read (a link status
    /// added later) still names the share recorded: a client that took it for no answer would send the
    /// share again, and again.
    /// - Parameter body: A response body, or a stored one being replayed.
    public static func shareID(in body: some Collection<UInt8>) -> UUID? {
        (try? JSONDecoder().decode(NamedShare.self, from: Data(body)))?.share.id
    }

    /// What ``shareID(in:)`` reads.
    private struct NamedShare: Decodable {
        struct ID: Decodable {
            var id: UUID
        }

        var share: ID
    }
}
