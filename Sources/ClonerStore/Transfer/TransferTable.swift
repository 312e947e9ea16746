import ClonerModel

/// A table of the model's data as a whole-store move reads and writes it: every column as
/// stored, rows in key order (`_id` for an entity, `src, dst` for a join table), so two stores
/// holding the same rows read them back identically whatever their backend.
public struct TransferTable: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case entity
        case join
    }

    public let kind: Kind
    /// The entity's name, or the join table's.
    public let name: String
    /// Key columns first (`_id`; or `src`, `dst`), then the rest as stored.
    public let columns: [TransferColumn]

    /// How many leading columns form the key the rows are ordered and paged by.
    public var keyColumnCount: Int { kind == .entity ? 1 : 2 }

    public init(kind: Kind, name: String, columns: [TransferColumn]) {
        self.kind = kind
        self.name = name
        self.columns = columns
    }
}
