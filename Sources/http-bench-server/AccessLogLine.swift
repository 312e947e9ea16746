#if canImport(Glibc)
import Glibc
#endif
import ClonerHTTP

/// The access log as the service will write it (DESIGN.md §5: one JSON line per request,
/// written as the request ends): formatted by hand into one byte array and written with a
/// single write(2), so a benchmark with the log on measures what production pays.
///
/// Sendable: it holds only the descriptor, which write(2) may use from every loop thread at
/// once; each line goes out in one call on an O_APPEND descriptor, so lines never interleave.
struct AccessLogLine: Sendable {
    let fd: Int32

    /// Opens (creating, appending) `path`; `/dev/null` keeps the formatting cost without disk I/O.
    init(path: String) throws(AccessLogError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw AccessLogError(path: path, errno: errno) }
        self.fd = fd
    }

    func write(_ record: HTTPAccessLogRecord) {
        var line: [UInt8] = []
        line.reserveCapacity(256 + record.path.utf8.count)
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        line.append(contentsOf: Fragment.ts)
        appendDecimal(Int(now.tv_sec), to: &line)
        appendFraction(Int(now.tv_nsec) / 1000, digits: 6, to: &line)
        line.append(contentsOf: Fragment.method)
        appendJSONString(record.method, to: &line)
        line.append(contentsOf: Fragment.path)
        appendJSONString(record.path, to: &line)
        if let route = record.route {
            line.append(contentsOf: Fragment.route)
            appendJSONString(route, to: &line)
        }
        line.append(contentsOf: Fragment.status)
        appendDecimal(record.status, to: &line)
        let (seconds, attoseconds) = record.duration.components
        let micros = Int(seconds) * 1_000_000 + Int(attoseconds / 1_000_000_000_000)
        line.append(contentsOf: Fragment.durationMS)
        appendDecimal(micros / 1000, to: &line)
        appendFraction(micros % 1000, digits: 3, to: &line)
        line.append(contentsOf: Fragment.bytes)
        appendDecimal(record.bytesSent, to: &line)
        line.append(contentsOf: Fragment.requestID)
        appendJSONString(record.requestID, to: &line)
        line.append(contentsOf: Fragment.remote)
        appendJSONString(record.remoteAddress, to: &line)
        line.append(contentsOf: Fragment.end)
        line.withUnsafeBytes { bytes in
            // A short or failed write loses one log line; the request was answered regardless.
            _ = Glibc.write(fd, bytes.baseAddress, bytes.count)
        }
    }

    /// Digits straight into the line: `String(value)` would allocate a string per number.
    private func appendDecimal(_ value: Int, to line: inout [UInt8]) {
        if value < 0 {
            line.append(UInt8(ascii: "-"))
            appendDecimal(0 - value, to: &line)
            return
        }
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            line.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// "." and `value` zero-padded to `digits` places.
    private func appendFraction(_ value: Int, digits: Int, to line: inout [UInt8]) {
        line.append(UInt8(ascii: "."))
        var divisor = 1
        for _ in 1..<digits { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            line.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
            rest %= divisor
            divisor /= 10
        }
    }

    /// RFC 8259 §7 escaping: quote, backslash and control bytes; everything else is UTF-8 as is.
    /// Paths, ids and addresses almost never need escaping, so the common case is one copy.
    private func appendJSONString(_ text: String, to line: inout [UInt8]) {
        line.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            if !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                line.append(contentsOf: bytes)
                return
            }
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    line.append(UInt8(ascii: "\\"))
                    line.append(byte)
                case 0..<0x20:
                    line.append(contentsOf: #"\u00"#.utf8)
                    line.append(hexDigits[Int(byte >> 4)])
                    line.append(hexDigits[Int(byte & 0xF)])
                default:
                    line.append(byte)
                }
            }
        }
        line.append(UInt8(ascii: "\""))
    }
}

/// The line's fixed parts as byte arrays: appending a `String.UTF8View` goes through
/// `_StringGuts.copyUTF8` with retain/release each time (about 170 instructions under callgrind);
/// appending an array is a memcpy.
private enum Fragment {
    static let ts: [UInt8] = Array(#"{"ts":"#.utf8)
    static let method: [UInt8] = Array(#","level":"info","msg":"request","method":"#.utf8)
    static let path: [UInt8] = Array(#","path":"#.utf8)
    static let route: [UInt8] = Array(#","route":"#.utf8)
    static let status: [UInt8] = Array(#","status":"#.utf8)
    static let durationMS: [UInt8] = Array(#","duration_ms":"#.utf8)
    static let bytes: [UInt8] = Array(#","bytes":"#.utf8)
    static let requestID: [UInt8] = Array(#","request_id":"#.utf8)
    static let remote: [UInt8] = Array(#","remote":"#.utf8)
    static let end: [UInt8] = Array("}\n".utf8)
}

private let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
