import Foundation

/// RFC 3339 date-time text, formatted and parsed by hand.
///
/// `DateFormatter`/`ISO8601DateFormatter` are expensive to build and not safe to share across
/// threads on every platform; the service formats a timestamp per log line and per date attribute,
/// so it uses the civil-calendar arithmetic below (proleptic Gregorian, UTC) instead.
public enum RFC3339Timestamp {
    /// `2026-11-21T20:15:29.123Z`: UTC, always three fraction digits (docs/architecture.md#the-model-file).
    public static func format(millisecondsSince1970 milliseconds: Int64) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        append(millisecondsSince1970: milliseconds, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The instants RFC 3339 text can name, as milliseconds since 1970: years 0000 to 9999. What a
    /// client can write through any route; a value outside it came from elsewhere.
    public static let representableMilliseconds: ClosedRange<Int64> =
        (daysSince1970(year: 0, month: 1, day: 1) * 86_400_000)...(daysSince1970(year: 10_000, month: 1, day: 1) * 86_400_000 - 1)

    /// The current time, read with `clock_gettime` (no `Date` allocation or formatter).
    public static func nowMilliseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }

    public static func append(millisecondsSince1970 milliseconds: Int64, to bytes: inout [UInt8]) {
        let (seconds, millis) = floorDivide(milliseconds, 1000)
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let (year, month, day) = civilDate(daysSince1970: days)
        let hour = secondOfDay / 3600, minute = secondOfDay / 60 % 60, second = secondOfDay % 60
        if year < 0 || year > 9999 {
            // Outside RFC 3339's four-digit years; still written so no information is lost.
            bytes.append(contentsOf: String(year).utf8)
        } else {
            appendDigits(year, count: 4, to: &bytes)
        }
        bytes.append(UInt8(ascii: "-"))
        appendDigits(month, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(day, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendDigits(hour, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(minute, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(second, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        appendDigits(millis, count: 3, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// Parses RFC 3339 §5.6 `date-time`: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, any number
    /// of fraction digits (truncated to milliseconds), any offset, `t`/`z` in either case
    /// (§5.6 note). Returns nil for anything else, including impossible dates such as 02-30.
    public static func parse(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    public static func parse(utf8 b: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard b.count >= 20 else { return nil }
        func number(_ start: Int, _ count: Int) -> Int64? {
            var value: Int64 = 0
            for i in start..<(start + count) {
                let byte = b[i]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0, 4), b[4] == UInt8(ascii: "-"),
            let month = number(5, 2), b[7] == UInt8(ascii: "-"),
            let day = number(8, 2), b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
            let hour = number(11, 2), b[13] == UInt8(ascii: ":"),
            let minute = number(14, 2), b[16] == UInt8(ascii: ":"),
            let second = number(17, 2)
        else { return nil }
        // §5.7: months 1–12, days up to the month's length, hours < 24, minutes < 60; a leap
        // second (60) cannot be represented in milliseconds since the epoch and is refused.
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var millis: Int64 = 0
        if b[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < b.count, b[index] >= UInt8(ascii: "0"), b[index] <= UInt8(ascii: "9") {
                if index - fractionStart < 3 { millis = millis * 10 + Int64(b[index] - UInt8(ascii: "0")) }
                index += 1
            }
            let digits = index - fractionStart
            guard digits > 0 else { return nil }
            if digits == 1 { millis *= 100 } else if digits == 2 { millis *= 10 }
        }
        guard index < b.count else { return nil }
        var offsetSeconds: Int64 = 0
        switch b[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard b.count - index == 6, let offsetHour = number(index + 1, 2), b[index + 3] == UInt8(ascii: ":"),
                let offsetMinute = number(index + 4, 2), offsetHour < 24, offsetMinute < 60
            else { return nil }
            offsetSeconds = (offsetHour * 3600 + offsetMinute * 60) * (b[index] == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        default:
            return nil
        }
        guard index == b.count else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return seconds * 1000 + millis
    }

    static func isLeapYear(_ year: Int64) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        var quotient = value / divisor
        var remainder = value % divisor
        if remainder < 0 {
            quotient -= 1
            remainder += divisor
        }
        return (quotient, remainder)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date. The year is shifted to start in March so
    /// the leap day falls at the end, which makes every 400-year era the same 146 097 days.
    static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let marchYear = month <= 2 ? year - 1 : year
        let (era, yearOfEra) = floorDivide(marchYear, 400)
        let marchMonth = (month + 9) % 12  // March = 0 … February = 11
        let dayOfYear = (153 * marchMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468  // 719 468 days from 0000-03-01 to 1970-01-01
    }

    /// The inverse of `daysSince1970`.
    static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let (era, dayOfEra) = floorDivide(days + 719_468, 146_097)
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * marchMonth + 2) / 5 + 1
        let month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func appendDigits(_ value: Int64, count: Int, to bytes: inout [UInt8]) {
        var divisor: Int64 = 1
        for _ in 1..<count { divisor *= 10 }
        var remaining = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(remaining / divisor % 10))
            remaining %= divisor
            divisor /= 10
        }
    }
}
