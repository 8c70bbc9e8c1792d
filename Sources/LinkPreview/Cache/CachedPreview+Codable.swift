import Foundation
import LinkPreviewCore

/// The stable JSON form: absent optionals omitted, dates as seconds since 1970 whatever the encoder's
/// date strategy (so a database column or a file written by one encoder reads with any other).
extension CachedPreview: Codable {
    enum CodingKeys: String, CodingKey {
        case metadata, failure, storedAt, expiresAt, etag, lastModified, validatorURL, staleSince
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            metadata: try c.decodeIfPresent(LinkMetadata.self, forKey: .metadata),
            failure: try c.decodeIfPresent(CachedFailure.self, forKey: .failure),
            storedAt: Date(timeIntervalSince1970: try c.decode(Double.self, forKey: .storedAt)),
            expiresAt: Date(timeIntervalSince1970: try c.decode(Double.self, forKey: .expiresAt)),
            etag: try c.decodeIfPresent(String.self, forKey: .etag),
            lastModified: try c.decodeIfPresent(String.self, forKey: .lastModified),
            validatorURL: try c.decodeIfPresent(URL.self, forKey: .validatorURL),
            staleSince: try c.decodeIfPresent(Double.self, forKey: .staleSince).map(Date.init(timeIntervalSince1970:))
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(metadata, forKey: .metadata)
        try c.encodeIfPresent(failure, forKey: .failure)
        try c.encode(storedAt.timeIntervalSince1970, forKey: .storedAt)
        try c.encode(expiresAt.timeIntervalSince1970, forKey: .expiresAt)
        try c.encodeIfPresent(etag, forKey: .etag)
        try c.encodeIfPresent(lastModified, forKey: .lastModified)
        try c.encodeIfPresent(validatorURL, forKey: .validatorURL)
        try c.encodeIfPresent(staleSince?.timeIntervalSince1970, forKey: .staleSince)
    }
}
