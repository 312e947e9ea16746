import Foundation

extension UUID {
    /// Parses the 36-character text form (RFC 9562 §4: `8-4-4-4-12` hex digits, either case) from
    /// UTF-8 bytes; nil for anything else.
    ///
    /// `UUID(uuidString:)` parses with `sscanf` on Linux, which was a tenth of the time of a
    /// `GET /items` page (issue 13): every Item has a uuid column. Callers that must accept
    /// whatever `UUID(uuidString:)` accepts fall back to it when this returns nil.
    public init?(hexUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 36 else { return nil }
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &raw) { out -> Bool in
            var index = 0
            var byte = 0
            while index < 36 {
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard bytes[index] == UInt8(ascii: "-") else { return false }
                    index += 1
                    continue
                }
                guard let high = UUID.hexValue(bytes[index]), let low = UUID.hexValue(bytes[index + 1]) else { return false }
                out[byte] = high << 4 | low
                byte += 1
                index += 2
            }
            return true
        }
        guard parsed else { return nil }
        self.init(uuid: raw)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
