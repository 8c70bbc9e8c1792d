import Foundation
import LinkPreviewCore

extension ShareItem: Codable {
    /// The version of the JSON form this code writes; a record with a higher one is set aside.
    public static let jsonVersion = 1

    enum CodingKeys: String, CodingKey {
        case version, id, createdAt, account, url, text, provided, note, recipients, attachments
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let version = try c.decode(Int.self, forKey: .version)
        guard version <= Self.jsonVersion else {
            throw DecodingError.dataCorruptedError(
                forKey: .version,
                in: c,
                debugDescription: "version \(version) is newer than this code reads (\(Self.jsonVersion))"
            )
        }
        let created = try c.decode(String.self, forKey: .createdAt)
        guard let createdAt = try? Date(created, strategy: Self.dateStyle) else {
            throw DecodingError.dataCorruptedError(
                forKey: .createdAt,
                in: c,
                debugDescription: "'\(created)' is not an ISO 8601 date"
            )
        }
        self.init(
            id: try c.decode(UUID.self, forKey: .id),
            createdAt: createdAt,
            account: try c.decodeIfPresent(UUID.self, forKey: .account),
            url: try c.decodeIfPresent(URL.self, forKey: .url),
            text: try c.decodeIfPresent(String.self, forKey: .text),
            provided: try c.decodeIfPresent(LinkMetadata.self, forKey: .provided),
            note: try c.decodeIfPresent(String.self, forKey: .note),
            recipients: try c.decodeIfPresent([String].self, forKey: .recipients) ?? [],
            attachments: try c.decodeIfPresent([ShareAttachment].self, forKey: .attachments) ?? []
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Self.jsonVersion, forKey: .version)
        try c.encode(id, forKey: .id)
        try c.encode(Self.format(createdAt), forKey: .createdAt)
        try c.encodeIfPresent(account, forKey: .account)
        try c.encodeIfPresent(url, forKey: .url)
        try c.encodeIfPresent(text, forKey: .text)
        try c.encodeIfPresent(provided, forKey: .provided)
        try c.encodeIfPresent(note, forKey: .note)
        if !recipients.isEmpty { try c.encode(recipients, forKey: .recipients) }
        if !attachments.isEmpty { try c.encode(attachments, forKey: .attachments) }
    }

    static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// `2023-11-14T22:13:20.250Z`: the milliseconds are computed, not left to a formatter that may
    /// truncate `.2499999` to `.249`, so a round trip gives back the same date.
    static func format(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let whole = fraction < 0 ? (seconds - 1, fraction + 1000) : (seconds, fraction)
        let text = Date(timeIntervalSince1970: TimeInterval(whole.0)).formatted(.iso8601)
        let digits = String(whole.1)
        return text.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// The record's bytes: sorted keys, so equal items give equal bytes.
    func recordData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// An item from a record's bytes.
    static func decodeRecord(_ data: Data) throws -> ShareItem {
        try JSONDecoder().decode(ShareItem.self, from: data)
    }
}
