package import Foundation

/// Parses the HTTP-date of RFC 9110 §5.6.7 in its three formats, without a formatter or a locale (the
/// names are English whatever the machine's locale, as a POSIX locale would read them):
///
/// - IMF-fixdate, the one senders must use: `Sun, 06 Nov 1994 08:49:37 GMT`
/// - the obsolete RFC 850 form: `Sunday, 06-Nov-94 08:49:37 GMT`
/// - the obsolete asctime form: `Sun Nov  6 08:49:37 1994`
///
/// Leniencies: day and month names in any case, short or long day names in any format, a one-digit day, `UTC` for `GMT`, surrounding spaces.
/// The weekday must be a weekday name but is not checked against the date. A two-digit year is the
/// most recent year with those digits that is at most 50 years after `reference` (RFC 9110).
package enum HTTPDate {
    /// The date `text` denotes, or `nil` when it is not an HTTP-date.
    package static func parse(_ text: String, reference: Date = Date()) -> Date? {
        var scanner = Scanner(Array(text.utf8))
        scanner.skipSpaces()
        guard let dayName = scanner.word(), weekdays.contains(dayName) else { return nil }
        let parts: DateParts?
        if scanner.consume(UInt8(ascii: ",")) {
            parts = parseFixdateOrRFC850(&scanner, reference: reference)
        } else {
            parts = parseAsctime(&scanner)
        }
        scanner.skipSpaces()
        guard let parts, scanner.isAtEnd else { return nil }
        return parts.date
    }

    private static let weekdays: Set<String> = [
        "mon", "tue", "wed", "thu", "fri", "sat", "sun",
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    ]
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// `, 06 Nov 1994 08:49:37 GMT` or `, 06-Nov-94 08:49:37 GMT`, after the day name.
    private static func parseFixdateOrRFC850(_ scanner: inout Scanner, reference: Date) -> DateParts? {
        guard scanner.consume(UInt8(ascii: " ")), let day = scanner.number(digits: 1...2) else { return nil }
        var year: Int
        let month: Int
        if scanner.consume(UInt8(ascii: "-")) {
            guard let name = scanner.word(), let index = months.firstIndex(of: name),
                scanner.consume(UInt8(ascii: "-")),
                let digits = scanner.number(digits: 2...4)
            else { return nil }
            month = index + 1
            year = digits
            if year < 100 { year = resolveTwoDigitYear(year, reference: reference) }
        } else {
            guard scanner.consume(UInt8(ascii: " ")), let name = scanner.word(),
                let index = months.firstIndex(of: name), scanner.consume(UInt8(ascii: " ")),
                let digits = scanner.number(digits: 4...4)
            else { return nil }
            month = index + 1
            year = digits
        }
        guard scanner.consume(UInt8(ascii: " ")), let time = scanner.timeOfDay(), scanner.consume(UInt8(ascii: " ")),
            let zone = scanner.word(), zone == "gmt" || zone == "utc"
        else { return nil }
        return DateParts(year: year, month: month, day: day, time: time)
    }

    /// ` Nov  6 08:49:37 1994`, after the day name.
    private static func parseAsctime(_ scanner: inout Scanner) -> DateParts? {
        guard scanner.consume(UInt8(ascii: " ")), let name = scanner.word(), let index = months.firstIndex(of: name),
            scanner.consume(UInt8(ascii: " "))
        else { return nil }
        _ = scanner.consume(UInt8(ascii: " "))
        guard let day = scanner.number(digits: 1...2), scanner.consume(UInt8(ascii: " ")),
            let time = scanner.timeOfDay(), scanner.consume(UInt8(ascii: " ")),
            let year = scanner.number(digits: 4...4)
        else { return nil }
        return DateParts(year: year, month: index + 1, day: day, time: time)
    }

    private static func resolveTwoDigitYear(_ twoDigits: Int, reference: Date) -> Int {
        let referenceYear = CivilDate.year(ofDay: Int((reference.timeIntervalSince1970 / 86_400).rounded(.down)))
        var year = referenceYear - referenceYear % 100 + twoDigits
        if year > referenceYear + 50 { year -= 100 }
        return year
    }
}

/// The fields of a parsed date, validated when made into a `Date`.
private struct DateParts {
    var year: Int
    var month: Int
    var day: Int
    var time: (hour: Int, minute: Int, second: Int)

    var date: Date? {
        guard (1...12).contains(month), (1...CivilDate.daysInMonth(month, year: year)).contains(day),
            (0...23).contains(time.hour), (0...59).contains(time.minute), (0...60).contains(time.second)
        else { return nil }
        let days = CivilDate.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + time.hour * 3_600 + time.minute * 60 + time.second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}

/// Proleptic Gregorian calendar arithmetic in days since 1970-01-01 (Howard Hinnant's algorithms).
enum CivilDate {
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func year(ofDay days: Int) -> Int {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        return yearOfEra + era * 400 + (shiftedMonth >= 10 ? 1 : 0)
    }

    static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }
}

/// A cursor over the bytes of a date.
private struct Scanner {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { position == bytes.count }

    mutating func consume(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    mutating func skipSpaces() {
        while position < bytes.count, bytes[position] == UInt8(ascii: " ") || bytes[position] == UInt8(ascii: "\t") {
            position += 1
        }
    }

    /// ASCII letters, lowercased.
    mutating func word() -> String? {
        let start = position
        while position < bytes.count, (bytes[position] | 0x20) >= UInt8(ascii: "a"),
            (bytes[position] | 0x20) <= UInt8(ascii: "z")
        {
            position += 1
        }
        guard position > start else { return nil }
        return String(decoding: bytes[start..<position].map { $0 | 0x20 }, as: UTF8.self)
    }

    /// A decimal number of a number of digits in `digits`.
    mutating func number(digits: ClosedRange<Int>) -> Int? {
        let start = position
        var value = 0
        while position < bytes.count, position - start < digits.upperBound,
            bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9")
        {
            value = value * 10 + Int(bytes[position] - UInt8(ascii: "0"))
            position += 1
        }
        guard digits.contains(position - start) else { return nil }
        // More digits than allowed is not a number of this length.
        if position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
            return nil
        }
        return value
    }

    /// `HH:MM:SS`.
    mutating func timeOfDay() -> (hour: Int, minute: Int, second: Int)? {
        guard let hour = number(digits: 2...2), consume(UInt8(ascii: ":")), let minute = number(digits: 2...2),
            consume(UInt8(ascii: ":")), let second = number(digits: 2...2)
        else { return nil }
        return (hour, minute, second)
    }
}
