import Foundation
import LinkPreviewCore
import Testing

struct MetadataDateTests {
    /// The instant of a UTC wall-clock time, computed with Foundation's calendar (not the parser's arithmetic).
    static func utc(
        _ year: Int,
        _ month: Int,
        _ day: Int,
        _ hour: Int = 0,
        _ minute: Int = 0,
        _ second: Int = 0
    ) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return calendar.date(from: components)!
    }

    @Test(arguments: [
        ("2019-05-01T10:00:00Z", utc(2019, 5, 1, 10)),
        ("2019-05-01T10:00:00+01:00", utc(2019, 5, 1, 9)),
        ("2019-05-01T10:00:00+0100", utc(2019, 5, 1, 9)),
        ("2019-05-01T10:00:00+01", utc(2019, 5, 1, 9)),
        ("2019-05-01T10:00:00-04:30", utc(2019, 5, 1, 14, 30)),
        ("2016-05-13T16:43:53+0000", utc(2016, 5, 13, 16, 43, 53)),
        ("2019-05-01T10:00:00", utc(2019, 5, 1, 10)),
        ("2019-05-01t10:00:00z", utc(2019, 5, 1, 10)),
        ("2019-05-01T10:00", utc(2019, 5, 1, 10)),
        ("2019-05-01 10:00:00", utc(2019, 5, 1, 10)),
        ("2019-05-01 10:00:00 UTC", utc(2019, 5, 1, 10)),
        ("2019-05-01 10:00:00 +02:00", utc(2019, 5, 1, 8)),
        ("2019-05-01", utc(2019, 5, 1)),
        ("2020-02-29", utc(2020, 2, 29)),
        ("  2019-05-01\n", utc(2019, 5, 1)),
        ("2019/05/01", utc(2019, 5, 1)),
        ("2019/5/1", utc(2019, 5, 1)),
        ("2019/05/01 10:00", utc(2019, 5, 1, 10)),
        ("20190501", utc(2019, 5, 1)),
    ])
    func readsISO8601AndItsRelaxations(text: String, expected: Date) {
        #expect(MetadataDate.parse(text) == expected)
    }

    @Test func readsFractionalSeconds() throws {
        let date = try #require(MetadataDate.parse("2019-05-01T10:00:00.123456Z"))
        #expect(abs(date.timeIntervalSince(Self.utc(2019, 5, 1, 10)) - 0.123456) < 1e-6)
        let comma = try #require(MetadataDate.parse("2019-05-01T10:00:00,5+01:00"))
        #expect(comma.timeIntervalSince(Self.utc(2019, 5, 1, 9)) == 0.5)
    }

    @Test(arguments: [
        ("Mon, 01 Jan 2020 10:00:00 GMT", utc(2020, 1, 1, 10)),
        ("Mon, 01 Jan 2020 10:00:00 +0000", utc(2020, 1, 1, 10)),
        ("Wed, 01 Jan 2020 10:00:00 -0500", utc(2020, 1, 1, 15)),
        ("01 Jan 2020 10:00 UT", utc(2020, 1, 1, 10)),
        ("Mon, Jan 7 2019 15:37:00 EST", utc(2019, 1, 7, 20, 37)),
        ("Thu, May 13 2021 14:01:31 EDT", utc(2021, 5, 13, 18, 1, 31)),
        ("Mon Jan  7 15:37:00 2019", utc(2019, 1, 7, 15, 37)),
        ("Sunday, 06-Nov-94 08:49:37 GMT", utc(1994, 11, 6, 8, 49, 37)),
        ("January 7, 2019", utc(2019, 1, 7)),
        ("7 January 2019", utc(2019, 1, 7)),
        ("Sept. 5, 2019", utc(2019, 9, 5)),
        ("Jan 7th, 2019 3:37 PM", utc(2019, 1, 7, 15, 37)),
        ("May 3, 2016 at 12:58 a.m.", utc(2016, 5, 3, 0, 58)),
        ("Tue, 01 Jan 2019 10:00:00 GMT+0100", utc(2019, 1, 1, 9)),
    ])
    func readsRFC2822AndProseForms(text: String, expected: Date) {
        #expect(MetadataDate.parse(text) == expected)
    }

    @Test(arguments: [
        ("1556704800", utc(2019, 5, 1, 10)),
        ("1556704800000", utc(2019, 5, 1, 10)),
        ("631152000", utc(1990, 1, 1)),
        ("4102444800", utc(2100, 1, 1)),
    ])
    func readsUnixTimeInThePlausibleRange(text: String, expected: Date) {
        #expect(MetadataDate.parse(text) == expected)
    }

    @Test func readsMillisecondsPrecisely() throws {
        let date = try #require(MetadataDate.parse("1556704800250"))
        #expect(date.timeIntervalSince(Self.utc(2019, 5, 1, 10)) == 0.25)
    }

    @Test(arguments: [
        "", "   ", "garbage", "yesterday", "null", "0", "123", "2019",
        // implausible Unix times: 1980, 2200, 1980 in milliseconds, too many digits
        "315532800", "7258118400", "315532800000", "99999999999999",
        // placeholder and out-of-range calendar dates
        "0000-00-00", "0000-00-00 00:00:00", "0001-01-01T00:00:00Z", "9999-12-31", "1066-10-14",
        "2019-02-29", "2019-13-01", "2019-04-31", "2019-05-00", "2019-05-01T24:00:00Z", "2019-05-01T10:60:00Z",
        "2019-05-01T10:00:00+25:00", "20191301",
        // malformed or ambiguous
        "2019-05", "2019-05-01T", "2019-05-01T10", "2019-05-01T10:00:00Zjunk", "2016-05-24T05:55%Z",
        "2019-05-01T10:00:00+010", "2019-05/01", "4/6/2016", "06/04/2016", "01.05.2019",
        "Mon, 01 Foo 2020 10:00:00 GMT", "January 2019", "Jan 7", "01 Jan 2020 10:00:00 XYZ",
        "Jan 7 2019 13:00 PM", "Jan 7 2019 PM", "Jan Feb 7 2019",
    ])
    func rejectsGarbage(text: String) {
        #expect(MetadataDate.parse(text) == nil)
    }

    @Test func rejectsOverlongInput() {
        #expect(MetadataDate.parse("2019-05-01" + String(repeating: " ", count: 300) + "x") == nil)
        #expect(MetadataDate.parse(String(repeating: "9", count: 10_000)) == nil)
    }

    @Test func readsWhatTheModelWrites() {
        let date = Date(timeIntervalSince1970: 1_600_000_000)
        #expect(MetadataDate.parse(date.formatted(.iso8601)) == date)
    }
}
