public import Foundation

/// Parses the date formats pages use in metadata (stub: ISO 8601 only; replaced by the full parser).
public enum MetadataDate {
    /// Parses `text` as a date, or returns nil.
    public static func parse(_ text: String) -> Date? {
        try? Date(text, strategy: .iso8601)
    }
}
