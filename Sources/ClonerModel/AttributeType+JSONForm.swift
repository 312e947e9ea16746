extension AttributeType {
    /// How a value of this type is written in JSON, for messages that tell the author what to write.
    public var expectedJSONForm: String {
        switch self {
        case .string: return "a string"
        case .integer: return "an integer"
        case .double: return "a number"
        case .boolean: return "true or false"
        case .date: return "an RFC 3339 date-time such as \"2026-11-21T20:15:29.123Z\""
        case .uuid: return "a UUID such as \"0f8fad5b-d9cb-469f-a165-70867728950e\""
        case .binary: return "base64 text"
        case .json: return "any JSON value"
        case .decimal: return "a decimal number (its digits in a string, such as \"12.50\", or a JSON number)"
        }
    }
}
