/// Percent-decoding (RFC 3986 §2.1). The request parser already refuses a target with an invalid
/// escape (400 naming it), so requests from the wire only hold valid ones; for other callers an
/// invalid escape is kept as written rather than guessed at.
enum PercentDecoding {
    static func decode(_ text: Substring, plusIsSpace: Bool) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                if first != utf8.endIndex {
                    let second = utf8.index(after: first)
                    if second != utf8.endIndex, let high = hex(utf8[first]), let low = hex(utf8[second]) {
                        bytes.append(high << 4 | low)
                        index = utf8.index(after: second)
                        continue
                    }
                }
                bytes.append(byte)
            } else if plusIsSpace && byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
            index = utf8.index(after: index)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
