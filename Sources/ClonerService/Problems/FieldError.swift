/// One offending field of a request, as listed in a 422 problem's `errors`.
///
/// `field` is a path into the request body (`name`, `items[2].name`, `noteDescription.text`) so a
/// client can point at the exact input that was refused, even inside nested objects.
public struct FieldError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    public var field: String
    /// What was wrong and what was expected, e.g. "expected an integer, got 1.5".
    public var message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    /// The `field` of an error about the request body as a whole (a JSON array where an object
    /// belongs): JSONPath's name for the root, which no attribute can have.
    public static let body = "$"

    public var description: String { field == FieldError.body ? message : "\(field): \(message)" }
}
