/// PostgreSQL's batch of the blob migration (`StoreOpening.migrateToBlobs`): a range of `_id`s,
/// its blobs, chunks and keys each written by one set-based statement, hashed by the server
/// (`sha256`), so no value travels to this process. The old column is not cleared: the whole
/// migration is one transaction, and the column goes at its end.
extension PostgreSQLStore {
    static let blobMigrationBatch: Int64 = 2_000

    static func hasColumn(_ column: String, inTable table: String, on connection: PostgreSQLConnection) throws -> Bool {
        try connection.query(
            "SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_name = $2",
            [.text(table), .text(column)]
        ).rowCount > 0
    }

    static func moveBinaryValues(
        of entity: String, column: String, aside: String, after last: Int64, on connection: PostgreSQLConnection
    ) throws -> (moved: Int, last: Int64)? {
        let table = quoted(entity), aside = quoted(aside)
        let next = try connection.query("SELECT min(\"_id\") FROM \(table) WHERE \"_id\" > $1 AND \(aside) IS NOT NULL", [.int8(last)])
        guard !next[0].isNull(0) else { return nil }
        let start = next[0].int64(0), end = start + blobMigrationBatch
        let range: [PostgreSQLValue] = [.int8(start), .int8(end)]
        let inRange = "\"_id\" >= $1 AND \"_id\" < $2 AND \(aside) IS NOT NULL"
        let blobs = quoted(StoreSchema.blobTable), chunks = quoted(StoreSchema.blobChunkTable), chunk = StoreSchema.blobChunkSize
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
        let moved = try connection.query("UPDATE \(table) SET \(quoted(column)) = sha256(\(aside)) WHERE \(inRange)", range).affectedRows
        return (Int(moved), end - 1)
    }
}
