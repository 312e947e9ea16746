/// A decimal number's text taken apart: its sign, its significant digits and the power of ten they
/// are multiplied by. What `ExactDecimal` checks against NSDecimal's limits and writes canonically.
struct DecimalParts {
    /// The value is `-digits × 10^exponent` when set. Never set for zero.
    var isNegative: Bool
    /// ASCII digits with no leading or trailing zero; empty for zero.
    var digits: [UInt8]
    /// The power of ten the digits are multiplied by.
    var exponent: Int

    /// An exponent written with more digits than this is far outside any range a caller accepts;
    /// reading it whole could overflow.
    private static let exponentDigitLimit = 9

    /// Reads `-?digits(.digits)?([eE][+-]?digits)?`, where either digit run around the point may be
    /// empty but not both (`.5` and `5.` are read; `.` is not).
    init(_ bytes: UnsafeBufferPointer<UInt8>) throws(ExactDecimal.ParseFailure) {
        var index = 0
        let negative = !bytes.isEmpty && bytes[0] == UInt8(ascii: "-")
        if negative { index += 1 }
        var mantissa: [UInt8] = []
        var fractionDigits = 0
        var sawDigit = false
        var sawPoint = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                sawDigit = true
                // Leading zeros carry no digit; the fraction's still move the point.
                if !(mantissa.isEmpty && byte == UInt8(ascii: "0")) { mantissa.append(byte) }
                if sawPoint { fractionDigits += 1 }
            } else if byte == UInt8(ascii: "."), !sawPoint {
                sawPoint = true
            } else {
                break
            }
            index += 1
        }
        guard sawDigit else { throw .notADecimal }
        var exponent = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            var exponentNegative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9") {
                if index - start < Self.exponentDigitLimit { exponent = exponent * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
                index += 1
            }
            guard index > start else { throw .notADecimal }
            if exponentNegative { exponent = -exponent }
        }
        guard index == bytes.count else { throw .notADecimal }
        var trailingZeros = 0
        while trailingZeros < mantissa.count, mantissa[mantissa.count - 1 - trailingZeros] == UInt8(ascii: "0") { trailingZeros += 1 }
        mantissa.removeLast(trailingZeros)
        self.isNegative = negative && !mantissa.isEmpty
        self.digits = mantissa
        self.exponent = mantissa.isEmpty ? 0 : exponent - fractionDigits + trailingZeros
    }

    /// The canonical text (`ExactDecimal`), or why NSDecimal cannot hold the value: more than 38
    /// significant digits, or a power of ten past its exponent once the digits are shifted as far
    /// as they go.
    func canonicalText() throws(ExactDecimal.ParseFailure) -> String {
        if digits.isEmpty { return "0" }
        guard digits.count <= ExactDecimal.maximumSignificantDigits else { throw .tooManyDigits(digits.count) }
        let range = ExactDecimal.exponentRange
        guard exponent >= range.lowerBound,
            digits.count + max(0, exponent - range.upperBound) <= ExactDecimal.maximumSignificantDigits
        else { throw .outOfRange }
        var text: [UInt8] = []
        text.reserveCapacity(digits.count + abs(exponent) + 3)
        if isNegative { text.append(UInt8(ascii: "-")) }
        let zero = UInt8(ascii: "0")
        if exponent >= 0 {
            text += digits
            text += repeatElement(zero, count: exponent)
        } else {
            let integerDigits = digits.count + exponent
            if integerDigits > 0 {
                text += digits[..<integerDigits]
                text.append(UInt8(ascii: "."))
                text += digits[integerDigits...]
            } else {
                text += [zero, UInt8(ascii: ".")]
                text += repeatElement(zero, count: -integerDigits)
                text += digits
            }
        }
        return String(decoding: text, as: UTF8.self)
    }
}
