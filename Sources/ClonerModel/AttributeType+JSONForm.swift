extension AttributeType {
    /// How a value of this type is written in JSON, for messages that tell the author what to write.
    public var expectedJSONForm: String {
        switch self {
        case .string: return "a string"
        case .integer: return "an integer"
        case .double: return "a number"
        case .boolean: return "true or false"
        case .date: return "an RFC 3339 date-time string such as \"2024-05-01T12:00:00.000Z\""
        case .uuid: return "a UUID string such as \"4f9d3c1e-8a2b-4c6d-9e0f-1a2b3c4d5e6f\""
        case .binary: return "a base64 string"
        case .json: return "any JSON value"
        }
    }
}
