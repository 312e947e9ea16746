/// The rule's reading of values in Swift, for an import that meets a clash: the same base and
/// numbers as the copy's SQL (`GraphCopySQLBuilder+Suffix.swift`), counted in Unicode scalars as
/// both stores count characters.
extension CopySuffix {
    /// `value` without a trailing `suffix` or numbered suffix (a prefix, 1 to `maximumDigits`
    /// digits, an ending), when something is left; else `value`.
    public func base(of value: String) -> String {
        let scalars = Array(value.unicodeScalars)
        let plain = Array(suffix.unicodeScalars)
        if scalars.count > plain.count, scalars.suffix(plain.count).elementsEqual(plain) {
            return Self.text(scalars.dropLast(plain.count))
        }
        return numbered(scalars)?.base ?? value
    }

    /// The copy number `value` holds for `base`: 1 for the first copy's value, the number of a
    /// numbered one, nil when `value` is no copy of `base`.
    public func number(of value: String, base: String) -> Int? {
        if value == self.value(base: base, number: 1) { return 1 }
        guard let (_, number) = numbered(Array(value.unicodeScalars)), number > 1, value == self.value(base: base, number: number) else {
            return nil
        }
        return number
    }

    /// The ranges of text (from, up to but not including) that hold every value the rule could
    /// give `base`: the first copy's value, and per length of a number the base as cut for it,
    /// the numbered suffix's prefix and a digit (`:` follows `9`).
    public func valueRanges(base: String) -> [(from: String, upTo: String)] {
        let first = value(base: base, number: 1)
        var ranges = [(first, first + "\u{1}")]
        let fixed = numberPrefix.unicodeScalars.count + numberSuffix.unicodeScalars.count
        for digits in maxLength == nil ? 1...1 : 1...Self.maximumDigits {
            var start = String.UnicodeScalarView()
            start.append(contentsOf: base.unicodeScalars.prefix(maxLength.map { max(0, $0 - fixed - digits) } ?? Int.max))
            let from = String(start) + numberPrefix
            ranges.append((from, from + ":"))
        }
        return ranges
    }

    /// The base and number of a value ending in the numbered suffix.
    private func numbered(_ scalars: [Unicode.Scalar]) -> (base: String, number: Int)? {
        let ending = Array(numberSuffix.unicodeScalars)
        let prefix = Array(numberPrefix.unicodeScalars)
        guard scalars.count > ending.count, scalars.suffix(ending.count).elementsEqual(ending) else { return nil }
        let withoutEnding = scalars.dropLast(ending.count)
        let digits = withoutEnding.reversed().prefix { ("0"..."9").contains($0) }.count
        guard (1...Self.maximumDigits).contains(digits) else { return nil }
        let beforeDigits = withoutEnding.dropLast(digits)
        guard beforeDigits.count > prefix.count, beforeDigits.suffix(prefix.count).elementsEqual(prefix) else { return nil }
        guard let number = Int(Self.text(withoutEnding.suffix(digits))) else { return nil }
        return (Self.text(beforeDigits.dropLast(prefix.count)), number)
    }

    private static func text(_ scalars: some Sequence<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}
