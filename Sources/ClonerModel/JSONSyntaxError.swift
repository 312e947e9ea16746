/// Where and why a JSON text is malformed. Line and column are what an editor shows (both 1-based,
/// the column counted in Unicode scalars), the byte offset is what a hex dump shows; a model author
/// needs the first, a client debugging a request body the second.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Zero-based byte offset of the offending byte (or of the end of the input).
    public var offset: Int
    public var line: Int
    public var column: Int
    public var reason: String

    public init(offset: Int, line: Int, column: Int, reason: String) {
        self.offset = offset
        self.line = line
        self.column = column
        self.reason = reason
    }

    public var description: String { "line \(line), column \(column) (byte \(offset)): \(reason)" }
}
