#if canImport(Glibc)
import Glibc
#endif

/// Request ids for requests without a usable `X-Request-ID`: a random per-loop prefix and a
/// counter (`5f3a9c1e2-1a`). Unique across loops and restarts for practical purposes, without
/// drawing random bytes for every request as a UUID would.
struct RequestIDGenerator {
    private let prefix: String
    private var counter: UInt64 = 0

    init(loopIndex: Int) {
        prefix = String(UInt32.random(in: 0x1000_0000...UInt32.max), radix: 16) + String(loopIndex, radix: 36)
    }

    mutating func next() -> String {
        counter &+= 1
        return prefix + "-" + String(counter, radix: 16)
    }

    /// A client id is echoed and logged, so it must be short and free of anything that could
    /// break a header or a log line: 1–128 of `A-Z a-z 0-9 - _ . : / + =`.
    static func isAcceptable(_ id: String) -> Bool {
        let utf8 = id.utf8
        guard !utf8.isEmpty, utf8.count <= 128 else { return false }
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "+"), UInt8(ascii: "="):
                continue
            default:
                return false
            }
        }
        return true
    }
}
