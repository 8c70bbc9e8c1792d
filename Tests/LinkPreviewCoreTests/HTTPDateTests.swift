import Foundation
import Testing

@testable import LinkPreviewCore

struct HTTPDateTests {
    /// Sun, 06 Nov 1994 08:49:37 GMT.
    static let example = Date(timeIntervalSince1970: 784_111_777)
    static let reference = Date(timeIntervalSince1970: 1_700_000_000)

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 1994",
        "  sun, 06 nov 1994 08:49:37 gmt ",
        "Sun, 6 Nov 1994 08:49:37 UTC",
        "Sun Nov 06 08:49:37 1994",
    ])
    func parsesTheThreeFormats(_ text: String) {
        #expect(HTTPDate.parse(text, reference: Self.reference) == Self.example)
    }

    @Test(arguments: [
        "",
        "0",
        "-1",
        "1994-11-06T08:49:37Z",
        "Sun, 06 Nov 1994 08:49:37 PST",
        "Sun, 06 Nov 1994 08:49:37",
        "Sun, 06 Nov 1994 24:00:00 GMT",
        "Sun, 06 Nov 1994 08:60:00 GMT",
        "Sun, 31 Nov 1994 08:49:37 GMT",
        "Thu, 29 Feb 2023 08:49:37 GMT",
        "Sun, 06 Foo 1994 08:49:37 GMT",
        "Xyz, 06 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 94 08:49:37 GMT",
        "Sun, 06 Nov 19945 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37 GMT trailing",
        "Sun Nov  6 08:49:37 94",
        "Sun, 006 Nov 1994 08:49:37 GMT",
    ])
    func rejectsMalformedDates(_ text: String) {
        #expect(HTTPDate.parse(text, reference: Self.reference) == nil)
    }

    @Test func leapDays() {
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 00:00:00 GMT") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(HTTPDate.parse("Tue, 29 Feb 2000 00:00:00 GMT") != nil)
        #expect(HTTPDate.parse("Thu, 29 Feb 1900 00:00:00 GMT") == nil)
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
        #expect(HTTPDate.parse("Sat, 31 Dec 1960 23:59:59 GMT") == Date(timeIntervalSince1970: -283_996_801))
    }

    @Test func twoDigitYearsAreAtMostFiftyYearsAhead() {
        // Reference year 2023: "73" is 2073 (50 years ahead), "74" is 1974.
        let in2073 = HTTPDate.parse("Monday, 01-Jan-73 00:00:00 GMT", reference: Self.reference)
        let in1974 = HTTPDate.parse("Tuesday, 01-Jan-74 00:00:00 GMT", reference: Self.reference)
        #expect(in2073 == Date(timeIntervalSince1970: 3_250_454_400))
        #expect(in1974 == Date(timeIntervalSince1970: 126_230_400))
    }

    @Test func civilYearOfDays() {
        #expect(CivilDate.year(ofDay: 0) == 1970)
        #expect(CivilDate.year(ofDay: -1) == 1969)
        #expect(CivilDate.year(ofDay: 19_675) == 2023)
        #expect(CivilDate.year(ofDay: CivilDate.days(year: 2024, month: 2, day: 29)) == 2024)
        #expect(CivilDate.year(ofDay: CivilDate.days(year: 2024, month: 12, day: 31)) == 2024)
        #expect(CivilDate.year(ofDay: CivilDate.days(year: 2025, month: 1, day: 1)) == 2025)
    }
}
