import Foundation

extension AttributeValue {
    /// The attribute value a JSON value stands for in an attribute of `type`, in the JSON forms of
    /// DESIGN.md §2 (date = RFC 3339, uuid = text, binary = base64, json = any value); nil when the
    /// JSON does not fit the type. JSON `null` is `.null` for every type: whether null is allowed is
    /// the attribute's business, not the value's.
    public init?(json: JSONValue, type: AttributeType) {
        if case .null = json { self = .null; return }
        switch (type, json) {
        case (.string, .string(let value)): self = .string(value)
        case (.integer, .integer(let value)): self = .integer(value)
        // An integer literal is a perfectly good double; the reverse would lose the fraction.
        case (.double, .integer(let value)): self = .double(Double(value))
        case (.double, .double(let value)): self = .double(value)
        case (.boolean, .bool(let value)): self = .boolean(value)
        case (.date, .string(let text)):
            guard let milliseconds = RFC3339Timestamp.parse(text) else { return nil }
            self = .date(millisecondsSince1970: milliseconds)
        case (.uuid, .string(let text)):
            guard text.utf8.count == 36, let uuid = UUID(uuidString: text) else { return nil }
            self = .uuid(uuid)
        case (.binary, .string(let text)):
            guard let data = Data(base64Encoded: text) else { return nil }
            self = .binary(data)
        case (.json, let value): self = .json(value.canonicalText)
        default: return nil
        }
    }

    /// The JSON form of the value, the inverse of `init(json:type:)`.
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
        case .json(let text):
            // The text is canonical JSON we wrote ourselves; failing to read it back is a broken invariant.
            guard let value = try? JSONValue(parsing: Data(text.utf8)) else {
                preconditionFailure("AttributeValue.json holds text that is not JSON: \(text)")
            }
            return value
        }
    }
}
