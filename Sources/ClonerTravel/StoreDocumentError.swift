/// Why `cloner import --all` refused a document. Nothing was written: the import runs in one
/// transaction that a refusal rolls back.
public enum StoreDocumentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A line that is not what the document must hold there, naming the field.
    case badLine(line: Int, field: String, message: String)
    /// What the document says of a table differs from its rows, or from what the store holds
    /// after writing them.
    case mismatch(table: String, message: String)
    /// The document ended before its end line.
    case incomplete(String)

    public var description: String {
        switch self {
        case let .badLine(line, field, message):
            return "line \(line)" + (field.isEmpty ? "" : ", \(field)") + ": \(message)"
        case let .mismatch(table, message): return "\(table): \(message)"
        case let .incomplete(message): return "the document is incomplete: \(message)"
        }
    }
}
