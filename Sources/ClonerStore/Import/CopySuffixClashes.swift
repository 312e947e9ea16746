import ClonerModel

/// An import's values of one `rebuild: suffix` attribute, a batch at a time: a value that is
/// already in the table, or already given in the import, gets the copy suffix with the lowest
/// number free for its base, as a clone's copy would (docs/architecture.md#unique-values-on-copy).
/// Values that clash with nothing are kept as the document has them.
struct CopySuffixClashes {
    let suffix: CopySuffix

    /// The prefixes of the values the table may hold that `values` could clash with, or take a
    /// number of: the start of every value the rule gives their bases.
    func prefixes(of values: [String?]) -> [String] {
        Array(Set(values.compactMap { $0.map { suffix.valuePrefix(base: suffix.base(of: $0)) } })).sorted()
    }

    /// `values` with every clash numbered, given the table's values that start with their
    /// `prefixes` (`existing`); the earlier value of a batch keeps its text.
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
            var numbers = numbersByBase[base] ?? Set(taken.compactMap { suffix.number(of: $0, base: base) })
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
