import Foundation

extension MetadataDate {
    /// The parts of a calendar date and time, validated and turned into a `Date`.
    struct Fields {
        var year: Int
        var month: Int
        var day: Int
        var hour = 0
        var minute = 0
        var second = 0
        var fraction = 0.0
        /// The zone's offset east of UTC, in seconds.
        var offsetSeconds = 0

        /// The instant, or nil when a field is out of range.
        var date: Date? {
            guard MetadataDate.plausibleYears.contains(year), (1...12).contains(month),
                (1...Self.daysIn(month: month, year: year)).contains(day), (0...23).contains(hour),
                (0...59).contains(minute), (0...60).contains(second), abs(offsetSeconds) <= 18 * 3600
            else { return nil }
            let days = Self.daysFromUnixEpoch(year: year, month: month, day: day)
            let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
            return Date(timeIntervalSince1970: Double(seconds) + fraction)
        }

        static func daysIn(month: Int, year: Int) -> Int {
            switch month {
            case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
            case 4, 6, 9, 11: 30
            default: 31
            }
        }

        /// Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`).
        static func daysFromUnixEpoch(year: Int, month: Int, day: Int) -> Int {
            let y = month <= 2 ? year - 1 : year
            let era = (y >= 0 ? y : y - 399) / 400
            let yearOfEra = y - era * 400
            let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            return era * 146_097 + dayOfEra - 719_468
        }
    }

    /// A read position in the ASCII bytes of a date.
    struct Cursor {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { index == bytes.count }
        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        /// Consumes `byte` when it is next.
        mutating func skip(_ byte: UInt8) -> Bool {
            guard current == byte else { return false }
            index += 1
            return true
        }

        /// Consumes spaces and tabs; returns whether there were any.
        @discardableResult
        mutating func skipSpaces() -> Bool {
            let start = index
            while let byte = current, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { index += 1 }
            return index > start
        }

        /// Consumes a run of decimal digits whose length is in `digits`; a longer run is rejected.
        mutating func number(digits: ClosedRange<Int>) -> Int? {
            let start = index
            var value = 0
            while let byte = current, Self.isDigit(byte) {
                value = value &* 10 &+ Int(byte - UInt8(ascii: "0"))
                index += 1
            }
            guard digits.contains(index - start) else {
                index = start
                return nil
            }
            return value
        }

        /// `H:MM`, `HH:MM:SS` or `HH:MM:SS.fff` (a comma is accepted before the fraction).
        mutating func time(into fields: inout Fields) -> Bool {
            guard let hour = number(digits: 1...2), skip(UInt8(ascii: ":")), let minute = number(digits: 2...2) else {
                return false
            }
            fields.hour = hour
            fields.minute = minute
            guard skip(UInt8(ascii: ":")) else { return true }
            guard let second = number(digits: 2...2) else { return false }
            fields.second = second
            guard skip(UInt8(ascii: ".")) || skip(UInt8(ascii: ",")) else { return true }
            var scale = 0.1
            var fraction = 0.0
            let start = index
            while let byte = current, Self.isDigit(byte) {
                fraction += Double(byte - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
            fields.fraction = fraction
            return index > start
        }

        /// `Z`, `UTC`, `GMT`, `UT` (optionally followed by an offset), or a numeric offset; returns
        /// seconds east of UTC.
        mutating func zone() -> Int? {
            if let offset = numericOffset() { return offset }
            let word = letters()
            guard ["z", "utc", "gmt", "ut"].contains(word) else { return nil }
            return isAtEnd ? 0 : numericOffset()
        }

        /// `±HH:MM`, `±HHMM`, `±HH` or `±H`; returns seconds east of UTC.
        mutating func numericOffset() -> Int? {
            guard let sign = current, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
            let start = index
            index += 1
            let digitsStart = index
            guard let value = number(digits: 1...4) else {
                index = start
                return nil
            }
            var hours = value
            var minutes = 0
            switch index - digitsStart {
            case 4:
                hours = value / 100
                minutes = value % 100
            case 3:
                index = start
                return nil
            default:
                if skip(UInt8(ascii: ":")) {
                    guard let value = number(digits: 2...2) else {
                        index = start
                        return nil
                    }
                    minutes = value
                }
            }
            guard hours <= 18, minutes < 60 else {
                index = start
                return nil
            }
            let seconds = hours * 3600 + minutes * 60
            return sign == UInt8(ascii: "-") ? -seconds : seconds
        }

        /// Consumes a run of ASCII letters and returns it lowercased.
        mutating func letters() -> String {
            let start = index
            while let byte = current, Self.isLetter(byte) { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self).lowercased()
        }

        static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        static func isLetter(_ byte: UInt8) -> Bool {
            (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
        }
        static func isWhitespace(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
                || byte == UInt8(ascii: "\r") || byte == 0x0C
        }
    }
}
