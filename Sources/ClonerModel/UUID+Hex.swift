import Foundation

extension UUID {
    /// Parses the 36-character text form (RFC 9562 §4: `8-4-4-4-12` hex digits, either case) from
    /// UTF-8 bytes; nil for anything else.
    ///
    /// `UUID(uuidString:)` parses with `sscanf` on Linux, which was a tenth of the time of a
    /// `GET /items` page: every Item has a uuid column. Callers that must accept
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
                guard let high = bytes[index].hexDigitValue, let low = bytes[index + 1].hexDigitValue else { return false }
                out[byte] = high << 4 | low
                byte += 1
                index += 2
            }
            return true
        }
        guard parsed else { return nil }
        self.init(uuid: raw)
    }
}
