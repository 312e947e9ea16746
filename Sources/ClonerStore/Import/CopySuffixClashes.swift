import ClonerModel

/// An import's values of one `rebuild: suffix` attribute, a batch at a time: a value that is
/// already in the table, or already given in the import, gets the copy suffix with the lowest
/// number free for its base, as a clone's copy would (docs/architecture.md#unique-values-on-copy).
/// Values that clash with nothing are kept as the document has them.
struct CopySuffixClashes {
    let suffix: CopySuffix

    /// The ranges of text holding the values the table may have that `values` could clash with
    /// (each value itself) or take a number of (`CopySuffix.valueRanges` of its base).
    func ranges(of values: [String?]) -> [(from: String, upTo: String)] {
        var seen: Set<String> = []
        var ranges: [(from: String, upTo: String)] = []
        for case let value? in values {
            for range in [(value, value + "\u{1}")] + suffix.valueRanges(base: suffix.base(of: value)) where seen.insert(range.0).inserted {
                ranges.append(range)
            }
        }
        return ranges
    }

    /// The copy numbers of `base` that `values` hold: only a value in one of the base's ranges
    /// is read for its number.
    private func numbersTaken(base: String, among values: Set<String>) -> Set<Int> {
        let starts = suffix.valueRanges(base: base).map { Array($0.from.utf8) }
        var numbers: Set<Int> = []
        for value in values where starts.contains(where: { value.utf8.starts(with: $0) }) {
            if let number = suffix.number(of: value, base: base) { numbers.insert(number) }
        }
        return numbers
    }

    /// `values` with every clash numbered, given the table's values in their `ranges`
    /// (`existing`); the earlier value of a batch keeps its text.
    func numbered(_ values: [String?], existing: Set<String>) -> [String?] {
        var taken = existing
        var numbersByBase: [String: Set<Int>] = [:]
        return values.map { value in
            guard let value else { return nil }
            guard taken.contains(value) else {
                taken.insert(value)
                return value
            }
            let base = suffix.base(of: value)
            var numbers = numbersByBase[base] ?? numbersTaken(base: base, among: taken)
            var number = 1
            // A value the batch kept may hold a number the table did not.
            while numbers.contains(number) || taken.contains(suffix.value(base: base, number: number)) { number += 1 }
            numbers.insert(number)
            numbersByBase[base] = numbers
            let renamed = suffix.value(base: base, number: number)
            taken.insert(renamed)
            return renamed
        }
    }
}
