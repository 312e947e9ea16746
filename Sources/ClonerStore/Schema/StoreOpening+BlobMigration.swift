import ClonerModel

/// Moves a store written before shared blobs (format version 1: bytes in the records' columns)
/// to blob references (docs/architecture.md#shared-blobs), once for both databases.
///
/// Per binary column: its unique indexes dropped, the column renamed aside and a reference column
/// added under its name; then the values move in batches, the backend's way
/// (`moveBinaryValues`), with a progress line per batch; then the old column is dropped and the
/// column's blob index (and constraint), unique index and groups are made. Each step is
/// `atomically`: on SQLite a transaction of its own, so an interrupted migration resumes where it
/// stopped — a column already set aside is not set aside again, moved values are cleared from it,
/// and the format version is written last; on PostgreSQL the whole preparation is one transaction
/// (`exclusively`), which a failure rolls back whole.
extension StoreOpening {
    static func migrateToBlobs(connection: Connection, model: DataModel, log: (String) -> Void) throws {
        typealias Dialect = Connection.Dialect
        try atomically(on: connection) {
            for statement in Dialect.blobTableStatements { try execute(statement, on: connection) }
        }
        for (entity, column) in StoreSchema(model: model).binaryColumns {
            guard let description = model.entity(named: entity), let attribute = description.attribute(named: column) else { continue }
            let table = quoted(entity), aside = "_old_\(column)"
            let groups = description.uniqueTogether.filter { $0.contains(column) }
            if try !hasColumn(aside, inTable: entity, on: connection) {
                try atomically(on: connection) {
                    // SQLite drops no column an index names: the indexes go now and come back below.
                    if attribute.isUnique {
                        try execute("DROP INDEX IF EXISTS \(quoted(Dialect.uniqueIndexName(entity: entity, attribute: column)))", on: connection)
                    }
                    for group in groups {
                        try execute(
                            "DROP INDEX IF EXISTS \(quoted(Dialect.uniqueTogetherIndexName(entity: entity, attributes: group)))", on: connection)
                    }
                    try execute("ALTER TABLE \(table) RENAME COLUMN \(quoted(column)) TO \(quoted(aside))", on: connection)
                    try execute("ALTER TABLE \(table) ADD COLUMN \(Dialect.columnDefinition(attribute))", on: connection)
                }
            }
            let total =
                try connection.int64("SELECT count(*) FROM \(table) WHERE \(quoted(aside)) IS NOT NULL", arguments: []) ?? 0
            log("moving \(total) values of \(entity).\(column) into the blob table")
            var moved: Int64 = 0
            var last = Int64.min
            while let batch = try atomically(on: connection, { try moveBinaryValues(of: entity, column: column, aside: aside, after: last, on: connection) }) {
                moved += Int64(batch.moved)
                last = batch.last
                log("\(entity).\(column): \(moved) of \(total) values moved")
            }
            try atomically(on: connection) {
                try execute("ALTER TABLE \(table) DROP COLUMN \(quoted(aside))", on: connection)
                for statement in Dialect.blobColumnStatements(entity: entity, column: column) { try execute(statement, on: connection) }
                if attribute.isUnique { try execute(Dialect.uniqueIndexStatement(entity: entity, attribute: column), on: connection) }
                for group in groups { try execute(Dialect.uniqueTogetherIndexStatement(entity: entity, attributes: group), on: connection) }
            }
        }
    }
}
