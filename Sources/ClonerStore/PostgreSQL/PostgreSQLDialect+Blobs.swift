/// PostgreSQL's spellings for blobs and the service tables: row locks for writers that run side
/// by side at READ COMMITTED, blob keys bound as one `bytea[]`, and `substr` on an uncompressed
/// chunk, which reads only the TOAST slices it needs.
extension PostgreSQLDialect {
    static func rowLock(_ lock: SQLRowLock) -> String {
        switch lock {
        case .update: return " FOR UPDATE"
        case .updateSkippingLocked: return " FOR UPDATE SKIP LOCKED"
        case .noKeyUpdate: return " FOR NO KEY UPDATE"
        case .keyShare: return " FOR KEY SHARE"
        }
    }

    static func amongBlobKeys(_ n: Int) -> String { "= ANY($\(n))" }

    /// `substr` takes `int4` places; the parameters are bound as `int8`.
    static func bytesSlice(_ expression: String, start: Int, length: Int) -> String { "substr(\(expression), $\(start)::int4, $\(length)::int4)" }
}
