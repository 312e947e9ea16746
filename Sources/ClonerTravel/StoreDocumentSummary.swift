import ClonerModel

/// A table's (or the blob section's) count and checksum, as the document states them and as a
/// store holds them: the line both commands print, so an export's and an import's output compare
/// with `diff`.
public struct StoreDocumentSummary: Sendable, Equatable, CustomStringConvertible {
    public let table: String
    public let rows: Int64
    /// SHA-256 of the rows' compact value arrays, hex.
    public let checksum: String
    /// For an entity, the highest `_id` its table ever issued.
    public let highestID: Int64?
    /// For the blob section, the bytes of all values.
    public let bytes: Int64?

    public init(table: String, rows: Int64, checksum: String, highestID: Int64? = nil, bytes: Int64? = nil) {
        self.table = table
        self.rows = rows
        self.checksum = checksum
        self.highestID = highestID
        self.bytes = bytes
    }

    public var description: String {
        var text = "\(table): \(rows) \(bytes == nil ? "rows" : "blobs")"
        if let bytes { text += ", \(bytes) bytes" }
        if let highestID { text += ", highest _id \(highestID)" }
        return text + ", sha256 \(checksum)"
    }

    var line: JSONValue {
        var members: [String: JSONValue] = [
            "kind": "summary", "table": .string(table), "rows": .integer(rows), "checksum": .string(checksum),
        ]
        if let highestID { members["highestID"] = .integer(highestID) }
        if let bytes { members["bytes"] = .integer(bytes) }
        return .object(members)
    }
}
