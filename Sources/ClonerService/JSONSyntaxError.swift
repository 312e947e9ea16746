/// Why a request body or settings file is not JSON, located by byte offset so a client can find
/// the mistake in what it sent (the service answers 400 `invalid_json` with this text).
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Offset of the offending byte from the start of the input.
    public var offset: Int
    public var message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    public var description: String { "invalid JSON at byte \(offset): \(message)" }
}
