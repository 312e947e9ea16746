@testable import ClonerModel
import Foundation
import Testing

@Suite struct RFC3339TimestampTests {
    @Test func formatsKnownInstants() {
        #expect(RFC3339Timestamp.format(millisecondsSince1970: 0) == "1970-01-01T00:00:00.000Z")
        #expect(RFC3339Timestamp.format(millisecondsSince1970: 1_795_292_129_123) == "2026-11-21T20:15:29.123Z")
        #expect(RFC3339Timestamp.format(millisecondsSince1970: -1) == "1969-12-31T23:59:59.999Z")
        #expect(RFC3339Timestamp.format(millisecondsSince1970: 951_782_400_000) == "2000-02-29T00:00:00.000Z")
        #expect(RFC3339Timestamp.format(millisecondsSince1970: 253_402_300_799_999) == "9999-12-31T23:59:59.999Z")
    }

    @Test func parsesOffsetsFractionsAndCase() {
        #expect(RFC3339Timestamp.parse("2026-11-21T20:15:29.123Z") == 1_795_292_129_123)
        #expect(RFC3339Timestamp.parse("2026-11-21T21:15:29.123+01:00") == 1_795_292_129_123)
        #expect(RFC3339Timestamp.parse("2026-11-21T15:45:29.123-04:30") == 1_795_292_129_123)
        #expect(RFC3339Timestamp.parse("2026-11-21t20:15:29.123456789z") == 1_795_292_129_123)
        #expect(RFC3339Timestamp.parse("2026-11-21T20:15:29Z") == 1_795_292_129_000)
        #expect(RFC3339Timestamp.parse("2026-11-21T20:15:29.1Z") == 1_795_292_129_100)
        #expect(RFC3339Timestamp.parse("2026-11-21T20:15:29.12Z") == 1_795_292_129_120)
        #expect(RFC3339Timestamp.parse("1969-12-31T23:59:59.999Z") == -1)
    }

    @Test(arguments: [
        "2026-02-29T00:00:00Z", "2100-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-04-31T00:00:00Z",
        "2026-11-21T24:00:00Z", "2026-11-21T20:60:00Z", "2026-11-21T20:15:60Z", "2026-11-21 20:15:29Z",
        "2026-11-21T20:15:29", "2026-11-21T20:15:29.Z", "2026-11-21T20:15:29+0100", "2026-11-21T20:15:29Z ",
        "26-11-21T20:15:29Z", "2026-11-21", "",
    ])
    func refusesMalformedOrImpossibleDates(text: String) {
        #expect(RFC3339Timestamp.parse(text) == nil)
    }

    /// Cross-checks the civil-calendar arithmetic against Foundation's calendar over 500 years.
    @Test func agreesWithFoundationAcrossCenturies() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            // Whole seconds plus a mid-range fraction, so Double rounding in the Foundation check cannot cross a second.
            let milliseconds = Int64.random(in: -5_000_000_000...12_000_000_000, using: &generator) * 1000 + Int64.random(in: 100...900, using: &generator)
            let text = RFC3339Timestamp.format(millisecondsSince1970: milliseconds)
            #expect(RFC3339Timestamp.parse(text) == milliseconds)
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let expected = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!, parts.second!)
            #expect(text.hasPrefix(expected), "\(milliseconds)")
        }
    }
}
