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
        line.append(contentsOf: #"{"ts":"#.utf8)
        appendDecimal(Int(now.tv_sec), fraction: Int(now.tv_nsec) / 1000, digits: 6, to: &line)
        line.append(contentsOf: #","level":"info","msg":"request","method":"#.utf8)
        appendJSONString(record.method, to: &line)
        line.append(contentsOf: #","path":"#.utf8)
        appendJSONString(record.path, to: &line)
        if let route = record.route {
            line.append(contentsOf: #","route":"#.utf8)
            appendJSONString(route, to: &line)
        }
        line.append(contentsOf: #","status":"#.utf8)
        line.append(contentsOf: String(record.status).utf8)
        let micros = record.duration.components.seconds * 1_000_000 + record.duration.components.attoseconds / 1_000_000_000_000
        line.append(contentsOf: #","duration_ms":"#.utf8)
        appendDecimal(Int(micros / 1000), fraction: Int(micros % 1000), digits: 3, to: &line)
        line.append(contentsOf: #","bytes":"#.utf8)
        line.append(contentsOf: String(record.bytesSent).utf8)
        line.append(contentsOf: #","request_id":"#.utf8)
        appendJSONString(record.requestID, to: &line)
        line.append(contentsOf: #","remote":"#.utf8)
        appendJSONString(record.remoteAddress, to: &line)
        line.append(contentsOf: "}\n".utf8)
        line.withUnsafeBytes { bytes in
            // A short or failed write loses one log line; the request was answered regardless.
            _ = Glibc.write(fd, bytes.baseAddress, bytes.count)
        }
    }

    private func appendDecimal(_ whole: Int, fraction: Int, digits: Int, to line: inout [UInt8]) {
        line.append(contentsOf: String(whole).utf8)
        line.append(UInt8(ascii: "."))
        let text = String(fraction)
        for _ in text.utf8.count..<digits { line.append(UInt8(ascii: "0")) }
        line.append(contentsOf: text.utf8)
    }

    /// RFC 8259 §7 escaping: quote, backslash and control bytes; everything else is UTF-8 as is.
    private func appendJSONString(_ text: String, to line: inout [UInt8]) {
        line.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
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
        line.append(UInt8(ascii: "\""))
    }
}

private let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
