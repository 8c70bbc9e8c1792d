public import Foundation

/// Parses the date formats pages put in their metadata (`article:published_time`, JSON-LD
/// `datePublished`, `<meta name=date>`, `<time datetime>`, …).
///
/// Accepted forms, all read without `DateFormatter` (the parser is a pure function: fast and safe
/// to call from any thread):
///
/// - ISO 8601 / RFC 3339 and its common relaxations: `2019-05-01T10:00:00Z`,
///   `2019-05-01T10:00:00.123+01:00`, `+0100`, `+01`, a lowercase `t`/`z`, a space instead of the
///   `T` (`2019-05-01 10:00:00`), seconds omitted (`2019-05-01T10:00`), `UTC`/`GMT` after a space.
///   No zone means UTC.
/// - A date alone, `2019-05-01` or `2019/05/01` (also `2019/5/1`), or the basic form `20190501`:
///   midnight UTC.
/// - RFC 1123 / RFC 2822 and the variants pages write: `Mon, 01 Jan 2020 10:00:00 GMT`,
///   `01 Jan 2020 10:00:00 +0000`, `Mon, Jan 7 2019 15:37:00 EST`, `January 7, 2019`,
///   `Jan 7th 2019 3:37 PM`, `Mon Jan  7 15:37:00 2019` (C `asctime`). Zones: `GMT`, `UT`, `UTC`, `Z`,
///   the North American `EST`…`PDT`, `CET`/`CEST`, or a numeric offset.
/// - Unix time as digits: seconds (`1556704800`) or milliseconds (`1556704800000`), only when it
///   falls between 1990 and 2100.
///
/// Calendar forms must name a year from 1800 to 2199 and a day that exists (`2019-02-30` is
/// rejected). Anything else, including all-numeric `04/06/2016` (day and month order cannot be
/// known), is rejected.
///
/// ```swift
/// MetadataDate.parse("2019-05-01")                       // 2019-05-01T00:00:00Z
/// MetadataDate.parse("Mon, 01 Jan 2020 10:00:00 +0100")  // 2020-01-01T09:00:00Z
/// MetadataDate.parse("yesterday")                        // nil
/// ```
public enum MetadataDate {
    /// Years a calendar form may name.
    static let plausibleYears = 1800...2199
    /// Unix seconds from 1990-01-01 to 2100-01-01, the range in which bare digits are read as a time.
    static let plausibleUnixSeconds: ClosedRange<Int64> = 631_152_000...4_102_444_800
    /// Longer input (once trimmed) is not a date.
    static let maxLength = 64

    /// Parses `text` as a date, or returns nil when it is not one of the accepted forms.
    ///
    /// - Parameter text: The value as written in the page; surrounding whitespace is ignored.
    /// - Returns: The instant, or nil.
    public static func parse(_ text: String) -> Date? {
        guard text.utf8.count <= 4 * maxLength else { return nil }
        var bytes = Array(text.utf8)
        while let last = bytes.last, Cursor.isWhitespace(last) { bytes.removeLast() }
        let start = bytes.firstIndex { !Cursor.isWhitespace($0) } ?? bytes.endIndex
        if start > 0 { bytes.removeFirst(start) }
        guard !bytes.isEmpty, bytes.count <= maxLength else { return nil }

        if bytes.allSatisfy(Cursor.isDigit) { return parseDigits(bytes) }
        if bytes.count >= 8, bytes[0..<4].allSatisfy(Cursor.isDigit),
            bytes[4] == UInt8(ascii: "-") || bytes[4] == UInt8(ascii: "/")
        {
            return parseISO(bytes)
        }
        return parseTextual(bytes)
    }

    /// Unix seconds or milliseconds in the plausible range, or the basic ISO form `YYYYMMDD`.
    private static func parseDigits(_ bytes: [UInt8]) -> Date? {
        if bytes.count == 8 {
            func number(_ range: Range<Int>) -> Int {
                bytes[range].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            }
            return Fields(year: number(0..<4), month: number(4..<6), day: number(6..<8)).date
        }
        guard bytes.count <= 13 else { return nil }
        var value: Int64 = 0
        for byte in bytes { value = value * 10 + Int64(byte &- UInt8(ascii: "0")) }
        if plausibleUnixSeconds.contains(value) { return Date(timeIntervalSince1970: Double(value)) }
        let milliseconds = plausibleUnixSeconds.lowerBound * 1000...plausibleUnixSeconds.upperBound * 1000
        if milliseconds.contains(value) { return Date(timeIntervalSince1970: Double(value) / 1000) }
        return nil
    }

    /// `YYYY-MM-DD` or `YYYY/MM/DD`, optionally followed by a time and a zone.
    private static func parseISO(_ bytes: [UInt8]) -> Date? {
        var cursor = Cursor(bytes)
        guard let year = cursor.number(digits: 4...4) else { return nil }
        let separator = bytes[4]
        guard cursor.skip(separator), let month = cursor.number(digits: 1...2), cursor.skip(separator),
            let day = cursor.number(digits: 1...2)
        else { return nil }
        var fields = Fields(year: year, month: month, day: day)
        if cursor.isAtEnd { return fields.date }

        guard cursor.skip(UInt8(ascii: "T")) || cursor.skip(UInt8(ascii: "t")) || cursor.skipSpaces() else {
            return nil
        }
        guard cursor.time(into: &fields) else { return nil }
        cursor.skipSpaces()
        if !cursor.isAtEnd {
            guard let offset = cursor.zone(), cursor.isAtEnd else { return nil }
            fields.offsetSeconds = offset
        }
        return fields.date
    }
}
