/// How `rebuild: suffix` makes a copy's text unique (docs/architecture.md#unique-values-on-copy):
/// the first copy of a value gets `suffix` appended, each later one `numberedSuffix` with the
/// lowest number not taken, counted from 2 — "Onboarding (copy)", "Onboarding (copy 2)". A copy
/// of a copy numbers from the value it was made from, as Finder does, so the base is the value
/// with a trailing suffix or numbered suffix taken off.
public struct CopySuffix: Sendable, Hashable {
    /// Appended to the first copy's value.
    public var suffix: String
    /// The numbered suffix's text before the number (`" (copy "`), never empty, so a number is
    /// only taken off a value that has it.
    public var numberPrefix: String
    /// The numbered suffix's text after the number (`")"`), possibly empty (`"-copy-%d"`).
    public var numberSuffix: String
    /// The longest value, in characters: the base is shortened so that base and suffix fit; nil
    /// for no bound.
    public var maxLength: Int?

    public init(suffix: String = " (copy)", numberPrefix: String = " (copy ", numberSuffix: String = ")", maxLength: Int? = nil) {
        self.suffix = suffix
        self.numberPrefix = numberPrefix
        self.numberSuffix = numberSuffix
        self.maxLength = maxLength
    }

    /// The numbered suffix as the model writes it, `%d` standing for the number.
    public var numberedSuffix: String { numberPrefix + Self.numberPlaceholder + numberSuffix }

    /// The user info keys that set the suffixes, beside the rule's `rebuild: suffix`.
    public static let suffixKey = "suffix"
    public static let numberedSuffixKey = "numberedSuffix"
    public static let maxLengthKey = "maxLength"

    /// Where the number goes in `numberedSuffix`.
    public static let numberPlaceholder = "%d"

    /// The most digits a number taken off a value may have: more is no number this rule wrote,
    /// and fits every store's integer.
    public static let maximumDigits = 9

    /// The longest suffix with a one-digit number: a maximum length must leave room for more,
    /// a base of at least one character.
    public var shortestRoom: Int {
        max(suffix.unicodeScalars.count, numberPrefix.unicodeScalars.count + 1 + numberSuffix.unicodeScalars.count)
    }

    /// The value copy number `number` gets from `base` (1: `suffix`; from 2: the numbered
    /// suffix), its base shortened to `maxLength`.
    public func value(base: String, number: Int) -> String {
        let ending = number == 1 ? suffix : numberPrefix + String(number) + numberSuffix
        guard let maxLength else { return base + ending }
        var shortened = String.UnicodeScalarView()
        shortened.append(contentsOf: base.unicodeScalars.prefix(max(0, maxLength - ending.unicodeScalars.count)))
        return String(shortened) + ending
    }
}
