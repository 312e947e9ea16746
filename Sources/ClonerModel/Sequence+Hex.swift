extension Sequence where Element == UInt8 {
    /// Lower-case hexadecimal, two digits a byte: for digests and SQL blob literals, without a
    /// `String(format:)` call per byte.
    public var lowercaseHex: String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
