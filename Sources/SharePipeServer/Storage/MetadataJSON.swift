import Foundation
package import LinkPreviewCore

/// `LinkMetadata` as stored in the database: its stable JSON form (docs/link-metadata-json.md).
package enum MetadataJSON {
    package static func encode(_ metadata: LinkMetadata) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(metadata), as: UTF8.self)
    }

    package static func decode(_ text: String) throws -> LinkMetadata {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(LinkMetadata.self, from: Data(text.utf8))
    }
}
