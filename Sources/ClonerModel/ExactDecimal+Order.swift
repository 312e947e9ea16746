extension ExactDecimal: Comparable {
    public static func < (lhs: ExactDecimal, rhs: ExactDecimal) -> Bool {
        var left = lhs.text
        var right = rhs.text
        return left.withUTF8 { a in right.withUTF8 { b in compareTexts(a, b) < 0 } }
    }

    /// Orders two decimal texts by the numbers they write: -1, 0 or 1, as SQLite's collation
    /// (`cloner_decimal`) answers, without allocating. Texts this type writes are canonical, but a
    /// column may hold text written by hand, so any `-?digits(.digits)?` compares by its value
    /// (`1.50` equals `1.5`, `-0` equals `0`) and any other text sorts after every number, by its
    /// bytes: an order that stays total and consistent whatever the column holds, which an index
    /// built with it needs.
    public static func compareTexts(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let left = DecimalTextShape(a)
        let right = DecimalTextShape(b)
        switch (left, right) {
        case (nil, nil): return compareBytes(a, b)
        case (nil, _): return 1
        case (_, nil): return -1
        case (let left?, let right?):
            if left.sign != right.sign { return left.sign < right.sign ? -1 : 1 }
            if left.sign == 0 { return 0 }
            let magnitude = compareMagnitudes(left, a, right, b)
            return left.sign < 0 ? -magnitude : magnitude
        }
    }

    private static func compareMagnitudes(
        _ left: DecimalTextShape, _ a: UnsafeBufferPointer<UInt8>, _ right: DecimalTextShape, _ b: UnsafeBufferPointer<UInt8>
    ) -> Int {
        let leftInteger = left.integer.count
        let rightInteger = right.integer.count
        if leftInteger != rightInteger { return leftInteger < rightInteger ? -1 : 1 }
        for offset in 0..<leftInteger where a[left.integer.lowerBound + offset] != b[right.integer.lowerBound + offset] {
            return a[left.integer.lowerBound + offset] < b[right.integer.lowerBound + offset] ? -1 : 1
        }
        let shared = min(left.fraction.count, right.fraction.count)
        for offset in 0..<shared where a[left.fraction.lowerBound + offset] != b[right.fraction.lowerBound + offset] {
            return a[left.fraction.lowerBound + offset] < b[right.fraction.lowerBound + offset] ? -1 : 1
        }
        // The fractions end in a non-zero digit, so the longer one is larger.
        if left.fraction.count != right.fraction.count { return left.fraction.count < right.fraction.count ? -1 : 1 }
        return 0
    }

    private static func compareBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        for index in 0..<min(a.count, b.count) where a[index] != b[index] {
            return a[index] < b[index] ? -1 : 1
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }
}

/// Where a decimal text's digits are, found without copying them: the integer digits after any
/// leading zero and the fraction digits before any trailing zero, as index ranges into the text.
private struct DecimalTextShape {
    /// -1, 0 or 1; 0 for any zero, `-0` and `0.000` included.
    var sign: Int
    var integer: Range<Int>
    var fraction: Range<Int>

    /// Nil unless the text is `-?digits(.digits)?`.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        let zero = UInt8(ascii: "0")
        var index = 0
        let negative = !bytes.isEmpty && bytes[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        let integerStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        guard index > integerStart else { return nil }
        let integerEnd = index
        var fractionStart = index
        var fractionEnd = index
        if index < bytes.count {
            guard bytes[index] == UInt8(ascii: "."), index + 1 < bytes.count else { return nil }
            index += 1
            fractionStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index == bytes.count, index > fractionStart else { return nil }
            fractionEnd = index
        }
        var leading = integerStart
        while leading < integerEnd, bytes[leading] == zero { leading += 1 }
        while fractionEnd > fractionStart, bytes[fractionEnd - 1] == zero { fractionEnd -= 1 }
        integer = leading..<integerEnd
        fraction = fractionStart..<fractionEnd
        sign = integer.isEmpty && fraction.isEmpty ? 0 : (negative ? -1 : 1)
    }
}
