/// A decimal number kept exactly, as Core Data's Decimal attribute (NSDecimalNumber) holds one:
/// up to 38 significant digits, times a power of ten from 10^-128 to 10^127.
///
/// The value is its canonical text, the one form every layer reads and writes: an optional `-`,
/// the integer digits with no leading zero (`0` when there are none), then `.` and the fraction
/// digits with no trailing zero when there is a fraction; no exponent, no `+`, no `-0`. `12.50`,
/// `12.5` and `1.25e1` all become `12.5`, so two equal numbers are one value (equality and hashing
/// are the text's), what the service answers does not depend on how the value was written, and
/// NSDecimalNumber's own `description` gives the same text. The text is never read into a
/// `Double`: every digit a client sends is the digit it reads back.
public struct ExactDecimal: Sendable, Hashable {
    /// The canonical text (see the type's comment).
    public let text: String

    /// NSDecimal's mantissa holds 38 decimal digits.
    public static let maximumSignificantDigits = 38
    /// NSDecimal's exponent is a signed byte's range: the value is mantissa × 10^exponent.
    public static let exponentRange: ClosedRange<Int> = -128...127

    /// Why a text is not a decimal this type holds, worded for a message after the field's name.
    public enum ParseFailure: Error, Sendable, Hashable {
        /// Not digits with an optional `-`, `.` and exponent (`abc`, `NaN`, `1,5`, `""`).
        case notADecimal
        /// More significant digits than NSDecimal keeps (the count is given).
        case tooManyDigits(Int)
        /// Too large or too small in magnitude for NSDecimal's exponent.
        case outOfRange

        public var reason: String {
            switch self {
            case .notADecimal: return "not a decimal number"
            case .tooManyDigits(let count):
                return "\(count) significant digits, more than the \(ExactDecimal.maximumSignificantDigits) a decimal keeps"
            case .outOfRange: return "out of range for a decimal (magnitudes from 1e-128 to below 1e165)"
            }
        }
    }

    /// Reads a decimal written as `-?digits(.digits)?([eE][+-]?digits)?` (leading and trailing
    /// zeros allowed; a fraction may also start with `.`), the form of a JSON number and of the
    /// strings the service accepts for a decimal, and refuses anything NSDecimal could not hold
    /// exactly rather than rounding it.
    public init(parsing text: String) throws(ParseFailure) {
        var text = text
        // `withUTF8` rethrows untyped errors: the failure comes out as a result.
        let parts = text.withUTF8 { bytes in Result { () throws(ParseFailure) in try DecimalParts(bytes) } }
        self.text = try parts.get().canonicalText()
    }

    /// The canonical text of an integer, which is always a decimal this type holds.
    public init(_ integer: Int64) {
        text = String(integer)
    }

    public static let zero = ExactDecimal(0)
}

extension ExactDecimal: CustomStringConvertible {
    public var description: String { text }
}
