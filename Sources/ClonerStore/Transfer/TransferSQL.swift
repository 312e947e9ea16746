import ClonerModel

/// The statements of a whole-store move that read the same on both backends: keyset pages of a
/// table in key order, the blob rows in key order, runs of chunk rows, the emptiness probe.
/// Each backend says only how it writes a numbered parameter (`Dialect`); the multi-row INSERT
/// and the id sequences differ more and live with each backend's context.
struct TransferSQL {
    struct Dialect {
        /// The text before a parameter's 1-based number: `?` on SQLite (`?1`), `$` on PostgreSQL.
        let parameterPrefix: String
    }

    let dialect: Dialect

    private func parameter(_ number: Int) -> String { dialect.parameterPrefix + String(number) }

    /// At most the last parameter's count of rows after the key given in the first parameter(s),
    /// in key order: the index on the key serves it, whatever the table's size.
    func page(_ table: TransferTable) -> String {
        let columns = table.columns.map { quoted($0.name) }.joined(separator: ", ")
        let from = "SELECT \(columns) FROM \(quoted(table.name))"
        switch table.kind {
        case .entity:
            return "\(from) WHERE \"_id\" > \(parameter(1)) ORDER BY \"_id\" LIMIT \(parameter(2))"
        case .join:
            return "\(from) WHERE (\"src\", \"dst\") > (\(parameter(1)), \(parameter(2))) ORDER BY \"src\", \"dst\" LIMIT \(parameter(3))"
        }
    }

    /// A row, if the table has one.
    func anyRow(_ table: String) -> String { "SELECT 1 FROM \(quoted(table)) LIMIT 1" }

    /// The first blob keys stored, in key order (the emptiness probe: only model defaults may be there).
    func firstBlobs() -> String {
        "SELECT \"hash\" FROM \(quoted(StoreSchema.blobTable)) ORDER BY \"hash\" LIMIT \(parameter(1))"
    }

    /// A page of finished blobs after a key, in key order; pending uploads (size -1) are no
    /// value yet and stay behind.
    func blobPage() -> String {
        """
        SELECT "hash", "size" FROM \(quoted(StoreSchema.blobTable)) WHERE "size" >= 0 AND "hash" > \(parameter(1)) \
        ORDER BY "hash" LIMIT \(parameter(2))
        """
    }

    /// The chunk rows of the finished blobs with keys from the first parameter to the second,
    /// numbered from the third (inclusive) to the fourth (exclusive), in key and number order.
    func chunkRun() -> String {
        let blobs = quoted(StoreSchema.blobTable)
        return """
            SELECT c."hash", c."n", c."bytes" FROM \(quoted(StoreSchema.blobChunkTable)) c JOIN \(blobs) b ON b."hash" = c."hash" \
            WHERE b."size" >= 0 AND c."hash" >= \(parameter(1)) AND c."hash" <= \(parameter(2)) \
            AND c."n" >= \(parameter(3)) AND c."n" < \(parameter(4)) ORDER BY c."hash", c."n"
            """
    }

    static let blobColumns = [TransferColumn(name: "hash", type: .binary), TransferColumn(name: "size", type: .integer)]
    static let chunkColumns = [
        TransferColumn(name: "hash", type: .binary), TransferColumn(name: "n", type: .integer), TransferColumn(name: "bytes", type: .binary),
    ]
}
