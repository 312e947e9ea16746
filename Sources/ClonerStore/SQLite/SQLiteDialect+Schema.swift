import ClonerModel

/// SQLite's DDL: references declared with their columns (a constraint cannot be added to a table
/// later), the blob and join tables WITHOUT ROWID where a row is its key.
extension SQLiteDialect {
    static let integerType = "INTEGER"
    static func columnType(_ type: AttributeType) -> String { type.sqlType }
    static func literal(_ value: AttributeValue) -> String { value.sqlLiteral }
    /// AUTOINCREMENT: an id is never reused, even after the row with the highest is deleted.
    static let idColumn = "\"_id\" INTEGER PRIMARY KEY AUTOINCREMENT"
    /// A column added by ALTER TABLE may carry its reference; a constraint cannot be added later.
    static let declaresReferences = true
    /// One writer at a time: new ids follow the highest any of the hierarchy's tables issued.
    static func idSpaceStatements(hierarchy: String, tables: [String]) -> [String] { [] }
    static func identifier(_ name: String) -> String { name }
    static let indexColumnsLead = ""
    static let indexesOnlyRowsWithAValue = true
    /// A join table is its primary key: a WITHOUT ROWID table stores each pair once, and the
    /// lineage's rows once, in key order.
    static let keyedTableOptions = " WITHOUT ROWID"
    static let textType = "TEXT"
    static var blobTableStatements: [String] { StoreSchema.blobCreateStatements }
    static let metadataTableStatement = "CREATE TABLE \(quoted(StoreSchema.metadataTable)) (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
    /// One DROP TABLE names one table; a reference left naming a dropped one is allowed.
    static func dropTableStatements(_ tables: [String]) -> [String] { tables.map { "DROP TABLE \(quoted($0))" } }
    /// The sibling's `sqlite_sequence` row made or raised to the dropped table's, which DROP TABLE
    /// deletes: the space's highest is the highest of its tables' rows.
    static func carryIssuedIDs(from dropped: String, to sibling: String) -> [String] {
        let (from, to) = (literal(.string(dropped)), literal(.string(sibling)))
        let issued = "(SELECT \"seq\" FROM sqlite_sequence WHERE \"name\" = \(from))"
        return [
            "INSERT INTO sqlite_sequence (\"name\", \"seq\") SELECT \(to), 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE \"name\" = \(to))",
            "UPDATE sqlite_sequence SET \"seq\" = max(\"seq\", coalesce(\(issued), 0)) WHERE \"name\" = \(to)",
        ]
    }
    /// SQLite has no ALTER INDEX: the index is made again (its table is renamed already).
    static func renameIndex(_ name: String, to newName: String, creating statement: String) -> [String] {
        ["DROP INDEX IF EXISTS \(quoted(name))", statement]
    }
}
