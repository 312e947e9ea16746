import ClonerModel

/// The parts of a value that may end in a numbered suffix (`" (copy 12)"`), as SQL expressions
/// both stores spell alike (`substr`, `length`, `rtrim` count characters on both): the text
/// before the number's suffix (`withoutEnd`), its trailing digits and what is left before them.
/// Every `substr` length is guarded, as PostgreSQL refuses a negative one.
struct NumberedSuffixSQL {
    let value: String
    let suffix: CopySuffix
    /// A string literal of the backend's dialect.
    let text: (String) -> String

    private var prefixLength: Int { suffix.numberPrefix.unicodeScalars.count }
    private var endLength: Int { suffix.numberSuffix.unicodeScalars.count }

    /// The value without the text after the number.
    private var withoutEnd: String {
        endLength == 0 ? value : "CASE WHEN length(\(value)) > \(endLength) THEN substr(\(value), 1, length(\(value)) - \(endLength)) ELSE '' END"
    }

    /// `withoutEnd` without its trailing digits.
    private var beforeDigits: String { "rtrim(\(withoutEnd), '0123456789')" }

    /// The number's digits (read only where `matches`).
    var digits: String { "substr(\(withoutEnd), length(\(beforeDigits)) + 1)" }

    /// The suffix's characters other than the number's.
    var fixedLength: Int { prefixLength + endLength }

    /// True when the value is a non-empty base, the numbered suffix's prefix, 1 to
    /// `CopySuffix.maximumDigits` digits and its ending.
    var matches: String {
        var conditions: [String] = []
        if endLength > 0 {
            conditions.append("length(\(value)) > \(endLength) AND substr(\(value), length(\(value)) - \(endLength - 1)) = \(text(suffix.numberSuffix))")
        }
        conditions.append("length(\(withoutEnd)) - length(\(beforeDigits)) BETWEEN 1 AND \(CopySuffix.maximumDigits)")
        conditions.append("length(\(beforeDigits)) > \(prefixLength)")
        conditions.append("substr(\(beforeDigits), length(\(beforeDigits)) - \(prefixLength - 1)) = \(text(suffix.numberPrefix))")
        return conditions.joined(separator: " AND ")
    }

    /// The base before the numbered suffix (read only where `matches`).
    var base: String { "substr(\(beforeDigits), 1, length(\(beforeDigits)) - \(prefixLength))" }
}
