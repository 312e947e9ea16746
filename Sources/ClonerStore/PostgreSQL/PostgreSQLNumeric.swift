/// `numeric`'s binary form (`numeric_send`/`numeric_recv`), to and from the canonical decimal text
/// of `ExactDecimal`: a decimal column's value crosses the wire digit for digit, never as a double
/// and without a text parameter the server would have to be told to cast.
///
/// The form: the count of base-10000 digits, the weight of the first (its power of 10000), the
/// sign (`0x0000`, `0x4000` negative, `0xC000` NaN, `0xD000`/`0xF000` ±Infinity), the display
/// scale (digits after the point), then the digits, each a big-endian Int16 from 0 to 9999.
enum PostgreSQLNumeric {
    static let positive: UInt16 = 0x0000
    static let negative: UInt16 = 0x4000

    /// Appends the binary form of a canonical decimal text (`-?digits(.digits)?`).
    static func append(_ text: String, to bytes: inout [UInt8]) {
        var utf8 = Array(text.utf8)
        let isNegative = utf8.first == UInt8(ascii: "-")
        if isNegative { utf8.removeFirst() }
        let point = utf8.firstIndex(of: UInt8(ascii: ".")) ?? utf8.count
        let integer = utf8[..<point].drop { $0 == UInt8(ascii: "0") }
        let fraction = point < utf8.count ? utf8[(point + 1)...] : []
        // Whole groups of four: the integer part padded on the left, the fraction on the right.
        let integerGroups = (integer.count + 3) / 4
        var padded = [UInt8](repeating: UInt8(ascii: "0"), count: integerGroups * 4 - integer.count)
        padded += integer
        padded += fraction
        padded += repeatElement(UInt8(ascii: "0"), count: (4 - fraction.count % 4) % 4)
        var groups: [UInt16] = stride(from: 0, to: padded.count, by: 4).map { start in
            padded[start..<start + 4].reduce(0) { $0 * 10 + UInt16($1 - UInt8(ascii: "0")) }
        }
        var weight = integerGroups - 1
        while groups.first == 0 {
            groups.removeFirst()
            weight -= 1
        }
        while groups.last == 0 { groups.removeLast() }
        if groups.isEmpty { weight = 0 }
        appendBigEndian(UInt16(groups.count), to: &bytes)
        appendBigEndian(UInt16(bitPattern: Int16(weight)), to: &bytes)
        appendBigEndian(isNegative && !groups.isEmpty ? negative : positive, to: &bytes)
        appendBigEndian(UInt16(fraction.count), to: &bytes)
        for group in groups { appendBigEndian(group, to: &bytes) }
    }

    /// The canonical decimal text of a binary `numeric`, or nil for NaN and the infinities (which
    /// the store never writes, and a decimal cannot hold) or a malformed value.
    static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.count >= 8 else { return nil }
        func word(_ index: Int) -> UInt16 { UInt16(bytes[2 * index]) << 8 | UInt16(bytes[2 * index + 1]) }
        let count = Int(word(0))
        let weight = Int(Int16(bitPattern: word(1)))
        let sign = word(2)
        guard sign == positive || sign == negative, bytes.count == 8 + 2 * count else { return nil }
        if count == 0 { return "0" }
        var integer: [UInt8] = []
        var fraction: [UInt8] = []
        func appendGroup(_ group: UInt16, to digits: inout [UInt8]) {
            digits += [group / 1000, group / 100 % 10, group / 10 % 10, group % 10].map { UInt8(ascii: "0") + UInt8($0) }
        }
        // Every group from the units' (or the first digit's, if higher) down to the last digit's.
        for power in stride(from: max(weight, 0), through: min(weight - count + 1, 0), by: -1) {
            let index = weight - power
            let group = index >= 0 && index < count ? word(4 + index) : 0
            guard group < 10_000 else { return nil }
            if power >= 0 { appendGroup(group, to: &integer) } else { appendGroup(group, to: &fraction) }
        }
        let firstDigit = integer.firstIndex { $0 != UInt8(ascii: "0") } ?? integer.count
        let lastDigit = fraction.lastIndex { $0 != UInt8(ascii: "0") }.map { $0 + 1 } ?? 0
        if firstDigit == integer.count && lastDigit == 0 { return "0" }
        var text: [UInt8] = sign == negative ? [UInt8(ascii: "-")] : []
        text += firstDigit < integer.count ? integer[firstDigit...] : [UInt8(ascii: "0")]
        if lastDigit > 0 {
            text.append(UInt8(ascii: "."))
            text += fraction[..<lastDigit]
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func appendBigEndian(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(value & 0xFF))
    }
}
