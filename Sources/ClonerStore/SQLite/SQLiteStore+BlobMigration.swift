import Foundation

/// SQLite's batch of the blob migration (`StoreOpening.migrateToBlobs`): each value stored
/// through the connection's blob writer (hashed here), its key written and the old value cleared,
/// so a migration interrupted between batches resumes with the rows not yet moved.
extension SQLiteStore {
    static let blobMigrationBatch = 500

    static func hasColumn(_ column: String, inTable table: String, on connection: SQLiteConnection) throws -> Bool {
        var found = false
        try connection.forEachRow("SELECT 1 FROM pragma_table_info(?) WHERE name = ?", [.text(table), .text(column)]) { _ in found = true }
        return found
    }

    static func moveBinaryValues(
        of entity: String, column: String, aside: String, after last: Int64, on connection: SQLiteConnection
    ) throws -> (moved: Int, last: Int64)? {
        let table = quoted(entity)
        var rows: [(id: Int64, bytes: Data)] = []
        try connection.forEachRow(
            "SELECT \"_id\", \(quoted(aside)) FROM \(table) WHERE \"_id\" > ? AND \(quoted(aside)) IS NOT NULL ORDER BY \"_id\" LIMIT \(blobMigrationBatch)",
            [.integer(last)]
        ) { rows.append(($0.int64(0), $0.data(1))) }
        guard let lastRow = rows.last else { return nil }
        for row in rows {
            let hash = try connection.storeBlob(row.bytes)
            try connection.execute("UPDATE \(table) SET \(quoted(column)) = ?, \(quoted(aside)) = NULL WHERE \"_id\" = ?", [.blob(hash), .integer(row.id)])
        }
        return (rows.count, lastRow.id)
    }
}
