import ClonerModel

/// A table of the model's data as a whole-store move reads and writes it: every column as
/// stored, rows in key order (`_id` for an entity, `src, dst` for a join table, `entity, clone_id`
/// for the lineage), so two stores
/// holding the same rows read them back identically whatever their backend.
public struct TransferTable: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case entity
        case join
        /// Where clones came from (`_cloner_lineage`, docs/architecture.md#lineage): keyed by the
        /// clone's entity name and `_id`.
        case lineage
    }

    public let kind: Kind
    /// The entity's name, or the join table's.
    public let name: String
    /// Key columns first (`_id`; or `src`, `dst`; or `entity`, `clone_id`), then the rest as stored.
    public let columns: [TransferColumn]

    /// How many leading columns form the key the rows are ordered and paged by.
    public var keyColumnCount: Int { kind == .entity ? 1 : 2 }

    /// The lineage table as a move carries it: the one service table that describes the data
    /// rather than requests in flight.
    static let lineage = TransferTable(
        kind: .lineage, name: ServiceTables.lineage,
        columns: [
            TransferColumn(name: "entity", type: .string), TransferColumn(name: "clone_id", type: .integer),
            TransferColumn(name: "source_id", type: .integer), TransferColumn(name: "created_at", type: .date),
        ])

    /// Where a page of this table's rows starts: before every key.
    var firstKey: [AttributeValue] {
        kind == .lineage ? [.string(""), .integer(Int64.min)] : Array(repeating: .integer(Int64.min), count: keyColumnCount)
    }

    public init(kind: Kind, name: String, columns: [TransferColumn]) {
        self.kind = kind
        self.name = name
        self.columns = columns
    }
}
