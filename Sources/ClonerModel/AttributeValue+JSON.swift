import Foundation

extension AttributeValue {
    /// Why a JSON value does not fit an attribute's type: what was expected, and (for numbers out
    /// of range) why. The caller names the field; this is the one place that decides the mapping.
    public struct JSONMismatch: Error, Sendable, Hashable {
        public var expected: String
        public var reason: String?
    }

    /// 2^53: every integer up to it has its own double, so one read from a double is the integer
    /// the client wrote.
    static let largestExactDoubleInteger: UInt64 = 1 << 53

    /// The attribute value a JSON value stands for in an attribute of `type`, in the JSON forms of
    /// docs/architecture.md#the-model-file: date = RFC 3339 (any offset), uuid = text (either case), binary = base64,
    /// json = any value (stored as its canonical text), integer = 64-bit (`1.0` accepted, a fraction
    /// refused: JSON has one number type), boolean = `true`/`false` only. JSON `null` is `.null`
    /// for every type: whether null is allowed is the attribute's business, not the value's.
    ///
    /// Model defaults, record bodies and clone `set` values all go through here, so the service
    /// and the model file can never disagree on what a value means.
    public static func decode(json: JSONValue, type: AttributeType) throws(JSONMismatch) -> AttributeValue {
        if case .null = json { return .null }
        if case .preciseNumber(let text) = json, type != .decimal, type != .json {
            // Read as the double the parser would have made of it: only a decimal keeps its digits.
            guard let number = Double(text), number.isFinite else { throw JSONMismatch(expected: type.expectedJSONForm, reason: "out of range") }
            return try decode(json: .double(number), type: type)
        }
        switch (type, json) {
        case (.string, .string(let value)): return .string(value)
        case (.integer, .integer(let value)): return .integer(value)
        case (.integer, .double(let number)) where number.rounded(.towardZero) == number:
            // Integers the parser could not keep as Int64 arrive as doubles; beyond 2^53 a double
            // no longer tells one integer from its neighbours (-9223372036854775809 rounds to
            // Int64.min), so only the exactly representable range is taken from one.
            guard let exact = Int64(exactly: number) else {
                throw JSONMismatch(expected: type.expectedJSONForm, reason: "out of range")
            }
            guard exact.magnitude <= largestExactDoubleInteger else {
                throw JSONMismatch(
                    expected: type.expectedJSONForm,
                    reason: "out of range or not exact: beyond ±2^53 write the integer without a fraction or exponent")
            }
            return .integer(exact)
        case (.integer, .bigInteger):
            throw JSONMismatch(expected: type.expectedJSONForm, reason: "out of range")
        // An integer literal is a perfectly good double; the reverse would lose the fraction.
        case (.double, .integer(let value)): return .double(Double(value))
        case (.double, .bigInteger(let text)):
            // The parser took the literal only because a double holds it (rounded, as any double).
            if let value = Double(text), value.isFinite { return .double(value) }
        // -0.0 is stored as 0 on every store: SQLite keeps no negative zero in a REAL column, so
        // the service promises one behaviour (reads back as 0) rather than one per backend.
        case (.double, .double(let value)): return .double(value == 0 ? 0 : value)
        case (.boolean, .bool(let value)): return .boolean(value)
        case (.date, .string(let text)):
            if let milliseconds = RFC3339Timestamp.parse(text) { return .date(millisecondsSince1970: milliseconds) }
        case (.uuid, .string(let text)):
            if text.utf8.count == 36, let uuid = UUID(uuidString: text) { return .uuid(uuid) }
        case (.binary, .string(let text)):
            if let data = Data(base64Encoded: text) { return .binary(data) }
        case (.json, let value): return .json(value.canonicalText)
        case (.decimal, .integer(let value)): return .decimal(ExactDecimal(value))
        case (.decimal, .string(let text)), (.decimal, .bigInteger(let text)), (.decimal, .preciseNumber(let text)):
            return try decimal(text)
        // The parser made a double only of a number whose digits it gives back: its shortest
        // text is the number the client wrote.
        case (.decimal, .double(let value)) where value.isFinite: return try decimal(value.description)
        default: break
        }
        throw JSONMismatch(expected: type.expectedJSONForm, reason: nil)
    }

    private static func decimal(_ text: String) throws(JSONMismatch) -> AttributeValue {
        do {
            return .decimal(try ExactDecimal(parsing: text))
        } catch {
            throw JSONMismatch(expected: AttributeType.decimal.expectedJSONForm, reason: error.reason)
        }
    }

    /// `decode(json:type:)` for callers that only need to know whether the value fits.
    public init?(json: JSONValue, type: AttributeType) {
        guard let value = try? AttributeValue.decode(json: json, type: type) else { return nil }
        self = value
    }

    /// The JSON form of the value, the inverse of `decode(json:type:)`.
    public var jsonValue: JSONValue {
        switch self {
        case .null: return .null
        case .string(let value): return .string(value)
        case .integer(let value): return .integer(value)
        case .double(let value): return .double(value)
        case .boolean(let value): return .bool(value)
        case .date(let milliseconds): return .string(RFC3339Timestamp.format(millisecondsSince1970: milliseconds))
        // RFC 9562 §4: UUIDs are written in lower case.
        case .uuid(let uuid): return .string(uuid.uuidString.lowercased())
        case .binary(let data): return .string(data.base64EncodedString())
        case .decimal(let value): return .string(value.text)
        case .json(let text):
            // The text is canonical JSON we wrote ourselves; failing to read it back is a broken invariant.
            guard let value = try? JSONValue(parsing: Data(text.utf8)) else {
                preconditionFailure("AttributeValue.json holds text that is not JSON: \(text)")
            }
            return value
        }
    }
}
