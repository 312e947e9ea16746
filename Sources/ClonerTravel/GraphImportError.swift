/// Why an import wrote nothing (every case: nothing was written).
public enum GraphImportError: Error, Sendable, CustomStringConvertible {
    /// A line is not JSON (`syntax` true) or not what the format allows there; `line` is 1-based,
    /// `field` the member at fault (`attributes.name`), empty for the line as a whole.
    case badLine(line: Int, field: String, message: String, syntax: Bool)
    /// The document's model and the target's differ where an import cannot bridge them: one entry
    /// per entity or property (`Item.size`), each with why.
    case modelDifferences([(property: String, message: String)])
    /// Shared objects the document links to that the target does not hold, one entry each; the
    /// request may ask to create them instead.
    case unmatched([(reference: String, message: String)])
    /// The document's root is not of the collection the request names.
    case wrongCollection(expected: String, found: String)
    /// A text or json value larger than a create's body could carry (`limit`, in bytes).
    case valueTooLarge(line: Int, field: String, bytes: Int, limit: Int)

    public var description: String {
        switch self {
        case let .badLine(line, field, message, _): return "line \(line)\(field.isEmpty ? "" : ", \(field)"): \(message)"
        case let .modelDifferences(list): return list.map { "\($0.property): \($0.message)" }.joined(separator: "; ")
        case let .unmatched(list): return list.map { "\($0.reference): \($0.message)" }.joined(separator: "; ")
        case let .wrongCollection(expected, found): return "the document's root is a \(found), not a \(expected)"
        case let .valueTooLarge(line, field, bytes, limit):
            return "line \(line), \(field): a value of \(bytes) bytes; a text or json value holds at most \(limit) (what a create's body can carry)"
        }
    }
}
