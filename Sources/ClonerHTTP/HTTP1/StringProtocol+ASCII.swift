extension StringProtocol {
    /// ASCII-only case folding: header names and tokens are ASCII (RFC 9110 §5.1), and
    /// `lowercased()` would allocate and apply Unicode rules we don't want.
    func equalsASCIICaseInsensitive(_ other: some StringProtocol) -> Bool {
        let lhs = utf8, rhs = other.utf8
        guard lhs.count == rhs.count else { return false }
        var right = rhs.makeIterator()
        for l in lhs {
            guard let r = right.next() else { return false }
            if l != r, l | 0x20 != r | 0x20 || !(l | 0x20 >= UInt8(ascii: "a") && l | 0x20 <= UInt8(ascii: "z")) {
                return false
            }
        }
        return true
    }

    /// Drops optional whitespace (SP / HTAB, RFC 9110 §5.6.3) from both ends.
    func trimmingOWS() -> SubSequence {
        var start = startIndex, end = endIndex
        while start < end, self[start] == " " || self[start] == "\t" { start = index(after: start) }
        while end > start {
            let before = index(before: end)
            guard self[before] == " " || self[before] == "\t" else { break }
            end = before
        }
        return self[start..<end]
    }
}
