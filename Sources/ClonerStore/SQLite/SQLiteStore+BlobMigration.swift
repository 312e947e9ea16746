import ClonerModel
import Foundation

/// Moves a store written before shared blobs (format version 1: bytes in the records' columns)
/// to blob references (docs/architecture.md#shared-blobs).
///
/// Per binary column: the column is renamed aside and a reference column added under its name
/// (one short transaction), then rows move in batches of `blobMigrationBatch`, each its own
/// transaction that stores the bytes as a blob, writes the key and clears the old value, with a
/// progress line per batch. Only then is the old column dropped. A crash in between leaves a
/// store that the next start picks up where it stopped: the format version is written last.
extension SQLiteStore {
    static let blobMigrationBatch = 500

    static func migrateToBlobs(connection: SQLiteConnection, model: DataModel, log: (String) -> Void) throws {
        let schema = StoreSchema(model: model)
        try connection.transaction(.immediate) {
            for statement in StoreSchema.blobCreateStatements { try connection.execute(statement) }
        }
        for (entity, column) in schema.binaryColumns {
            let table = quoted(entity)
            let aside = "_old_\(column)"
            let isUnique = model.entity(named: entity)?.attribute(named: column)?.isUnique ?? false
            let groups = (model.entity(named: entity)?.uniqueTogether ?? []).filter { $0.contains(column) }
            var hasAside = false
            try connection.forEachRow("SELECT 1 FROM pragma_table_info(?) WHERE name = ?", [.text(entity), .text(aside)]) { _ in hasAside = true }
            if !hasAside {
                try connection.transaction(.immediate) {
                    if isUnique { try connection.execute("DROP INDEX IF EXISTS \(quoted(SQLiteDialect.uniqueIndexName(entity: entity, attribute: column)))") }
                    // SQLite drops no column an index names: the groups go now, and come back below.
                    for group in groups {
                        try connection.execute("DROP INDEX IF EXISTS \(quoted(SQLiteDialect.uniqueTogetherIndexName(entity: entity, attributes: group)))")
                    }
                    try connection.execute("ALTER TABLE \(table) RENAME COLUMN \(quoted(column)) TO \(quoted(aside))")
                    try connection.execute("ALTER TABLE \(table) ADD COLUMN \(quoted(column)) BLOB REFERENCES \(quoted(StoreSchema.blobTable))(\"hash\")")
                }
            }
            let total = try connection.scalar("SELECT count(*) FROM \(table) WHERE \(quoted(aside)) IS NOT NULL")?.int64 ?? 0
            var moved: Int64 = 0
            log("moving \(total) values of \(entity).\(column) into the blob table")
            while true {
                let done = try connection.transaction(.immediate) { () throws -> Int in
                    var rows: [(id: Int64, bytes: Data)] = []
                    try connection.forEachRow(
                        "SELECT \"_id\", \(quoted(aside)) FROM \(table) WHERE \(quoted(aside)) IS NOT NULL ORDER BY \"_id\" LIMIT \(blobMigrationBatch)"
                    ) {
                        rows.append(($0.int64(0), $0.data(1)))
                    }
                    for row in rows {
                        let hash = try connection.storeBlob(row.bytes)
                        try connection.execute(
                            "UPDATE \(table) SET \(quoted(column)) = ?, \(quoted(aside)) = NULL WHERE \"_id\" = ?", [.blob(hash), .integer(row.id)])
                    }
                    return rows.count
                }
                guard done > 0 else { break }
                moved += Int64(done)
                log("\(entity).\(column): \(moved) of \(total) values moved")
            }
            try connection.transaction(.immediate) {
                try connection.execute("ALTER TABLE \(table) DROP COLUMN \(quoted(aside))")
                try connection.execute(SQLiteDialect.blobIndexStatement(entity: entity, column: column))
                if isUnique { try connection.execute(SQLiteDialect.uniqueIndexStatement(entity: entity, attribute: column)) }
                for group in groups { try connection.execute(SQLiteDialect.uniqueTogetherIndexStatement(entity: entity, attributes: group)) }
            }
        }
    }
}
