#if canImport(Glibc)
import Glibc
#endif

/// The `Date` header value (IMF-fixdate, RFC 9110 §5.6.7), formatted at most once a second per
/// event loop: a response costs a `time()` call, not a formatter's run.
struct HTTPDateCache {
    private var second: time_t = -1
    private(set) var value: [UInt8] = []

    /// The current value, refreshed when the wall-clock second changed.
    mutating func current() -> [UInt8] {
        let now = time(nil)
        if now != second {
            second = now
            value = Self.format(now)
        }
        return value
    }

    static func format(_ seconds: time_t) -> [UInt8] {
        var time = seconds
        var parts = tm()
        gmtime_r(&time, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(29)
        bytes.append(contentsOf: days[Int(parts.tm_wday)].utf8)
        bytes.append(contentsOf: ", ".utf8)
        appendTwoDigits(Int(parts.tm_mday), to: &bytes)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: months[Int(parts.tm_mon)].utf8)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: String(Int(parts.tm_year) + 1900).utf8)
        bytes.append(UInt8(ascii: " "))
        appendTwoDigits(Int(parts.tm_hour), to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendTwoDigits(Int(parts.tm_min), to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendTwoDigits(Int(parts.tm_sec), to: &bytes)
        bytes.append(contentsOf: " GMT".utf8)
        return bytes
    }

    private static func appendTwoDigits(_ value: Int, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "0") + UInt8(value / 10))
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}
