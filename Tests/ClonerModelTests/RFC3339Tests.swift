@testable import ClonerModel
import Foundation
import Testing

@Suite struct RFC3339Tests {
    static let valid: [(String, Int64)] = [
        ("1970-01-01T00:00:00Z", 0),
        ("1970-01-01T00:00:00.001Z", 1),
        ("2024-02-29T23:59:59.999Z", 1_709_251_199_999),
        ("2024-05-01t12:00:00.5z", 1_714_564_800_500),
        ("2024-05-01T12:00:00.123456789Z", 1_714_564_800_123),
        ("2024-05-01T14:30:00+02:30", 1_714_564_800_000),
        ("2024-05-01T09:00:00-03:00", 1_714_564_800_000),
        ("1969-12-31T23:59:59.999Z", -1),
        ("0000-03-01T00:00:00Z", -62_162_035_200_000),
        ("9999-12-31T23:59:59.999Z", 253_402_300_799_999),
        ("2026-11-21T20:15:29.123Z", 1_795_292_129_123),
        ("2026-11-21T21:15:29.123+01:00", 1_795_292_129_123),
        ("2026-11-21T15:45:29.123-04:30", 1_795_292_129_123),
        ("2026-11-21T20:15:29.1Z", 1_795_292_129_100),
        ("2026-11-21T20:15:29.12Z", 1_795_292_129_120),
        ("2000-02-29T00:00:00Z", 951_782_400_000),
    ]

    @Test(arguments: valid)
    func parses(text: String, milliseconds: Int64) {
        #expect(RFC3339Timestamp.parse(text) == milliseconds)
    }

    @Test(arguments: [
        "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-04-31T00:00:00Z", "2024-01-01T24:00:00Z",
        "2024-01-01T00:60:00Z", "2024-12-31T23:59:60Z", "2024-01-01T00:00:00", "2024-01-01 00:00:00Z",
        "2024-01-01T00:00:00.Z", "2024-01-01T00:00:00+0200", "2024-1-01T00:00:00Z", "2024-01-01T00:00:00Zjunk", "",
        "2100-02-29T00:00:00Z", "2026-11-21T20:15:29Z ", "26-11-21T20:15:29Z", "2026-11-21",
    ])
    func refuses(text: String) {
        #expect(RFC3339Timestamp.parse(text) == nil)
    }

    @Test func formatsWithMillisecondsInUTC() {
        #expect(RFC3339Timestamp.format(millisecondsSince1970: 0) == "1970-01-01T00:00:00.000Z")
        #expect(RFC3339Timestamp.format(millisecondsSince1970: -1) == "1969-12-31T23:59:59.999Z")
        #expect(RFC3339Timestamp.format(millisecondsSince1970: 1_709_251_199_999) == "2024-02-29T23:59:59.999Z")
        #expect(RFC3339Timestamp.format(millisecondsSince1970: -62_162_035_200_000) == "0000-03-01T00:00:00.000Z")
        #expect(RFC3339Timestamp.format(millisecondsSince1970: 1_795_292_129_123) == "2026-11-21T20:15:29.123Z")
        #expect(RFC3339Timestamp.format(millisecondsSince1970: 253_402_300_799_999) == "9999-12-31T23:59:59.999Z")
    }

    @Test func roundTripsAcrossCenturies() {
        // A day and a bit apart, from 1600 to 2400, covering every leap-year rule.
        var milliseconds: Int64 = -11_676_096_000_000
        var checked = 0
        while milliseconds < 13_569_465_600_000 {
            let text = RFC3339Timestamp.format(millisecondsSince1970: milliseconds)
            #expect(RFC3339Timestamp.parse(text) == milliseconds, "\(text)")
            milliseconds += 450_305_005
            checked += 1
        }
        #expect(checked > 50_000)
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
