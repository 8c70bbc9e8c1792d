public import Foundation

/// The JSON form of the API's bodies: ISO 8601 dates (whole seconds), sorted keys, unescaped slashes.
///
/// The server writes every response body with ``encoder()``; a client reads them with ``decoder()``:
///
/// ```swift
/// let created = try APIJSON.decoder().decode(ShareCreated.self, from: body)
/// ```
public enum APIJSON {
    /// An encoder that writes the API's form.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// A decoder that reads the API's form.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// `value` in the API's form, as text.
    package static func encode(_ value: some Encodable) throws -> String {
        String(decoding: try encoder().encode(value), as: UTF8.self)
    }
}
