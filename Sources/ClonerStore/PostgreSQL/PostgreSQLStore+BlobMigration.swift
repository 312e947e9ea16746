import ClonerModel
import Foundation

/// Moves a store written before shared blobs (format version 1: bytes in the records' columns)
/// to blob references (docs/architecture.md#shared-blobs), inside the preparation's transaction:
/// PostgreSQL's DDL is transactional, so a failed or interrupted migration leaves the old layout
/// whole, and replicas starting meanwhile wait on the preparation lock.
///
/// Per binary column: renamed aside, a reference column added under its name, then the rows move
/// in `_id` ranges of `blobMigrationBatch` — the blob rows, their chunks and the keys each
/// written by one set-based statement per range, hashed by the server (`sha256`) — with a
/// progress line per range; then the old column is dropped (no table rewrite) and the column's
/// constraint and indexes made.
extension PostgreSQLStore {
    static let blobMigrationBatch: Int64 = 2_000

    static func migrateToBlobs(connection: PostgreSQLConnection, model: DataModel, log: (String) -> Void) throws {
        for statement in PostgreSQLSchema.blobCreateStatements { try connection.execute(statement) }
        let schema = StoreSchema(model: model)
        let blobs = quoted(StoreSchema.blobTable), chunks = quoted(StoreSchema.blobChunkTable)
        let chunk = StoreSchema.blobChunkSize
        for (entity, column) in schema.binaryColumns {
            let table = quoted(entity)
            let aside = quoted("_old_\(column)")
            let isUnique = model.entity(named: entity)?.attribute(named: column)?.isUnique ?? false
            try connection.execute("ALTER TABLE \(table) RENAME COLUMN \(quoted(column)) TO \(aside)")
            try connection.execute("ALTER TABLE \(table) ADD COLUMN \(quoted(column)) bytea")
            let bounds = try connection.query("SELECT coalesce(min(\"_id\"), 0), coalesce(max(\"_id\"), -1), count(\(aside)) FROM \(table)")[0]
            let (low, high, total) = (bounds.int64(0), bounds.int64(1), bounds.int64(2))
            log("moving \(total) values of \(entity).\(column) into the blob table")
            var start = low
            while start <= high {
                let end = start + blobMigrationBatch
                let range: [PostgreSQLValue] = [.int8(start), .int8(end)]
                let inRange = "\"_id\" >= $1 AND \"_id\" < $2 AND \(aside) IS NOT NULL"
                _ = try connection.query(
                    """
                    INSERT INTO \(blobs) ("hash", "size") SELECT DISTINCT sha256(\(aside)), length(\(aside)) FROM \(table) WHERE \(inRange)
                    ON CONFLICT DO NOTHING
                    """, range)
                // Every blob has chunk 0, so an empty value is one empty chunk.
                _ = try connection.query(
                    """
                    INSERT INTO \(chunks) ("hash", "n", "bytes")
                    SELECT sha256(\(aside)), g.n, substr(\(aside), (g.n * \(chunk) + 1)::int4, \(chunk))
                    FROM \(table) CROSS JOIN LATERAL generate_series(0, greatest((length(\(aside)) - 1) / \(chunk), 0)) AS g(n)
                    WHERE \(inRange)
                    ON CONFLICT DO NOTHING
                    """, range)
                let moved = try connection.query(
                    "UPDATE \(table) SET \(quoted(column)) = sha256(\(aside)) WHERE \"_id\" >= $1 AND \"_id\" < $2 AND \(aside) IS NOT NULL", range
                ).affectedRows
                if moved > 0 { log("\(entity).\(column): values of _id \(start) to \(end - 1) moved (\(moved))") }
                start = end
            }
            try connection.execute("ALTER TABLE \(table) DROP COLUMN \(aside)")
            for statement in PostgreSQLSchema.blobReferenceStatements(entity: entity, column: column) { try connection.execute(statement) }
            if isUnique { try connection.execute(PostgreSQLDialect.uniqueIndexStatement(entity: entity, attribute: column)) }
            // Dropping the old column dropped the groups it was part of.
            for group in model.entity(named: entity)?.uniqueTogether ?? [] where group.contains(column) {
                try connection.execute(PostgreSQLDialect.uniqueTogetherIndexStatement(entity: entity, attributes: group))
            }
        }
    }
}
