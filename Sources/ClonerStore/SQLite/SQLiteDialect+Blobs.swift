/// SQLite's spellings for blobs and the service tables: no row locks (one writer at a time), and
/// blob keys bound end to end as one BLOB, cut apart by a recursive query.
extension SQLiteDialect {
    static func rowLock(_ lock: SQLRowLock) -> String { "" }

    static func amongBlobKeys(_ n: Int) -> String {
        let length = BlobDigest.length
        return """
            IN (WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE (i + 1) * \(length) < length(?\(n))) \
            SELECT substr(?\(n), i * \(length) + 1, \(length)) FROM k)
            """
    }

    static func bytesSlice(_ expression: String, start: Int, length: Int) -> String { "substr(\(expression), ?\(start), ?\(length))" }
}
