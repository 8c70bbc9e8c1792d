import Foundation

extension MetadataDate {
    /// Dates that spell the month: RFC 1123 / RFC 2822 (`Mon, 01 Jan 2020 10:00:00 GMT`), RFC 850
    /// (`Sunday, 06-Nov-94 08:49:37 GMT`), `asctime` (`Mon Jan  7 15:37:00 2019`) and the prose forms
    /// pages write (`Mon, Jan 7 2019 15:37:00 EST`, `January 7th, 2019 at 3:37 p.m.`).
    ///
    /// The words may come in any order; a month, a day and a year are required, every word must be
    /// known, and a weekday is accepted but not checked.
    static func parseTextual(_ bytes: [UInt8]) -> Date? {
        var cursor = Cursor(bytes)
        var fields = Fields(year: 0, month: 0, day: 0)
        var month: Int?
        var day: Int?
        var year: Int?
        var hasTime = false
        var hasWeekday = false
        var hasZone = false
        var meridiem: Int?

        while let byte = cursor.current {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\t") {
                cursor.index += 1
            } else if Cursor.isLetter(byte) {
                let word = cursor.letters()
                if word == "a" || word == "p", cursor.skip(UInt8(ascii: ".")), cursor.letters() == "m" {
                    // `a.m.` / `p.m.`
                    guard meridiem == nil else { return nil }
                    meridiem = word == "a" ? 0 : 12
                } else if word == "am" || word == "pm" {
                    guard meridiem == nil else { return nil }
                    meridiem = word == "am" ? 0 : 12
                } else if let number = Self.monthNumber(word) {
                    guard month == nil else { return nil }
                    month = number
                } else if Self.isWeekday(word) {
                    guard !hasWeekday else { return nil }
                    hasWeekday = true
                } else if let hours = Self.zoneHours[word] {
                    guard !hasZone else { return nil }
                    hasZone = true
                    fields.offsetSeconds = hours * 3600
                    if let offset = cursor.numericOffset() { fields.offsetSeconds += offset }
                } else if word != "at" {
                    return nil
                }
                _ = cursor.skip(UInt8(ascii: "."))  // `Sept.`, `Mon.`
            } else if Cursor.isDigit(byte) {
                let start = cursor.index
                guard let value = cursor.number(digits: 1...4) else { return nil }
                let digits = cursor.index - start
                if cursor.current == UInt8(ascii: ":") {
                    guard !hasTime else { return nil }
                    cursor.index = start
                    guard cursor.time(into: &fields) else { return nil }
                    hasTime = true
                } else if digits == 4 {
                    guard year == nil else { return nil }
                    year = value
                } else if digits <= 2, day == nil {
                    if let suffix = cursor.current, Cursor.isLetter(suffix) {
                        guard ["st", "nd", "rd", "th"].contains(cursor.letters()) else { return nil }
                    }
                    day = value
                } else if digits == 2, year == nil {
                    year = value < 50 ? 2000 + value : 1900 + value  // RFC 2822 §4.3
                } else {
                    return nil
                }
            } else if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                let next = cursor.index + 1 < bytes.count ? bytes[cursor.index + 1] : 0
                if byte == UInt8(ascii: "-"), !hasTime || !Cursor.isDigit(next) {
                    cursor.index += 1  // `06-Nov-94`
                } else {
                    guard !hasZone, let offset = cursor.numericOffset() else { return nil }
                    hasZone = true
                    fields.offsetSeconds = offset
                }
            } else {
                return nil
            }
        }

        guard let month, let day, let year else { return nil }
        fields.year = year
        fields.month = month
        fields.day = day
        if let meridiem {
            guard hasTime, (1...12).contains(fields.hour) else { return nil }
            fields.hour = fields.hour % 12 + meridiem
        }
        return fields.date
    }

    private static let monthNames = [
        "january", "february", "march", "april", "may", "june",
        "july", "august", "september", "october", "november", "december",
    ]

    private static let weekdayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// Zone abbreviations of RFC 2822 §4.3, plus `UTC` and central European time.
    private static let zoneHours: [String: Int] = [
        "gmt": 0, "ut": 0, "utc": 0, "z": 0,
        "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8, "pdt": -7,
        "cet": 1, "cest": 2,
    ]

    /// The month a name or an abbreviation of at least three letters stands for (`jan`, `sept`, `june`).
    private static func monthNumber(_ word: String) -> Int? {
        guard word.utf8.count >= 3 else { return nil }
        return monthNames.firstIndex { $0.hasPrefix(word) }.map { $0 + 1 }
    }

    private static func isWeekday(_ word: String) -> Bool {
        word.utf8.count >= 3 && weekdayNames.contains { $0.hasPrefix(word) }
    }
}
