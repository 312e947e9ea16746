import ClonerModel

/// One column of a table a whole-store move carries, with the type its values are read and
/// written as. Bookkeeping columns (`_id`, `_version`, references, positions) are integers; a
/// binary attribute's column holds its blob's 32-byte key, so its values are `.binary(key)`,
/// never the bytes themselves (those travel once, in the blob section).
public struct TransferColumn: Sendable, Hashable {
    public let name: String
    public let type: AttributeType

    public init(name: String, type: AttributeType) {
        self.name = name
        self.type = type
    }
}

extension TransferColumn {
    /// The blob table's columns as a move carries them.
    static let blobColumns = [TransferColumn(name: "hash", type: .binary), TransferColumn(name: "size", type: .integer)]
    /// The chunk table's.
    static let chunkColumns = [
        TransferColumn(name: "hash", type: .binary), TransferColumn(name: "n", type: .integer), TransferColumn(name: "bytes", type: .binary),
    ]
}
