/// Literal syntax for JSON values, so code and tests can write `["name": "Note", "toMany": false]`
/// instead of nesting enum cases. No nil literal: `JSONValue?` comparisons with `nil` would turn
/// ambiguous; write `.null`.
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(
            Dictionary(
                elements,
                uniquingKeysWith: { _, _ in
                    preconditionFailure("duplicate key in a JSONValue dictionary literal")
                }))
    }
}
