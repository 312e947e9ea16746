import ClonerModel

/// The statements of a whole-store move, the same on every backend but for how a parameter is
/// written (`SQLDialect.parameter`): keyset pages of a table in key order, the blob rows in key
/// order, runs of chunk rows, the emptiness probes.
enum TransferStatement {
    /// At most the last parameter's count of rows after the key given in the first parameter(s),
    /// in key order: the index on the key serves it, whatever the table's size.
    case page(TransferTable)
    /// A row, if the table has one.
    case anyRow(table: String)
    /// The first blob keys stored, in key order (the emptiness probe: only model defaults may be there).
    case firstBlobs
    /// A page of finished blobs after a key, in key order; pending uploads (size -1) are no
    /// value yet and stay behind.
    case blobPage
    /// The chunk rows of the finished blobs with keys from the first parameter to the second,
    /// numbered from the third (inclusive) to the fourth (exclusive), in key and number order.
    case chunkRun

    func sql<Dialect: SQLDialect>(_ dialect: Dialect.Type) -> String {
        let parameter = Dialect.parameter
        switch self {
        case .page(let table):
            let columns = table.columns.map { quoted($0.name) }.joined(separator: ", ")
            let from = "SELECT \(columns) FROM \(quoted(table.name))"
            switch table.kind {
            case .entity:
                return "\(from) WHERE \"_id\" > \(parameter(1)) ORDER BY \"_id\" LIMIT \(parameter(2))"
            case .join:
                return "\(from) WHERE (\"src\", \"dst\") > (\(parameter(1)), \(parameter(2))) ORDER BY \"src\", \"dst\" LIMIT \(parameter(3))"
            case .lineage:
                // Entity names compare byte for byte on both (BINARY, COLLATE "C"): one order.
                return
                    "\(from) WHERE (\"entity\", \"clone_id\") > (\(parameter(1)), \(parameter(2))) ORDER BY \"entity\", \"clone_id\" LIMIT \(parameter(3))"
            }
        case .anyRow(let table):
            return "SELECT 1 FROM \(quoted(table)) LIMIT 1"
        case .firstBlobs:
            return "SELECT \"hash\" FROM \(quoted(StoreSchema.blobTable)) ORDER BY \"hash\" LIMIT \(parameter(1))"
        case .blobPage:
            return """
                SELECT "hash", "size" FROM \(quoted(StoreSchema.blobTable)) WHERE "size" >= 0 AND "hash" > \(parameter(1)) \
                ORDER BY "hash" LIMIT \(parameter(2))
                """
        case .chunkRun:
            let blobs = quoted(StoreSchema.blobTable)
            return """
                SELECT c."hash", c."n", c."bytes" FROM \(quoted(StoreSchema.blobChunkTable)) c JOIN \(blobs) b ON b."hash" = c."hash" \
                WHERE b."size" >= 0 AND c."hash" >= \(parameter(1)) AND c."hash" <= \(parameter(2)) \
                AND c."n" >= \(parameter(3)) AND c."n" < \(parameter(4)) ORDER BY c."hash", c."n"
                """
        }
    }
}
