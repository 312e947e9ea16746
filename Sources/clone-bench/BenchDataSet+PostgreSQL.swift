import ClonerStore
import Foundation

extension BenchDataSet {
    /// The same graph as `build(in:)` in a fresh PostgreSQL store (its tables already created by
    /// opening an `IncrementalStore` on it), set-wise over `generate_series`. Blobs are one random
    /// block of `attachmentBytes` with the row number written over its first 8 bytes: each row
    /// differs and none compresses (pglz gives up on random bytes), so a gibibyte of attachments is
    /// a gibibyte on disk, as with SQLite's `randomblob`.
    func build(postgreSQL uri: String) throws -> Int64 {
        precondition(items > 0 && tagCount >= 2, "a bench note needs items and at least two tags")
        let connection = try PostgreSQLConnection(uri: uri)
        try connection.execute("BEGIN")
        let existing = try connection.query("SELECT count(*) FROM \"Note\"")[0].int64(0)
        precondition(existing == 0, "the bench data set is built into a fresh store only")
        let created = PostgreSQLValue.timestamptz(millisecondsSince1970: BenchDataSet.createdMilliseconds)
        let noteUUID = PostgreSQLValue.uuid(UUID())
        let count = PostgreSQLValue.int8(Int64(items))
        var block = Data(count: attachmentBytes)
        block.withUnsafeMutableBytes { bytes in
            var generator = SystemRandomNumberGenerator()
            for index in bytes.indices { bytes[index] = generator.next() }
        }

        try connection.query(
            """
            INSERT INTO "Tag" ("_id", "_version", "name", "color") \
            SELECT i, 1, 'tag ' || i, CASE i % 3 WHEN 0 THEN 'red' WHEN 1 THEN 'green' ELSE NULL END FROM generate_series(1, $1::int8) i
            """, [.int8(Int64(tagCount))])
        // The note's own value first: a reference column must name a stored blob.
        try connection.query(
            """
            INSERT INTO "_cloner_blobs" ("hash", "size") VALUES (sha256('\\x010203'::bytea), 3);
            """)
        try connection.query(
            """
            INSERT INTO "_cloner_blob_chunks" ("hash", "n", "bytes") VALUES (sha256('\\x010203'::bytea), 0, '\\x010203'::bytea);
            """)
        try connection.query(
            """
            INSERT INTO "Note" ("_id", "_version", "id", "name", "createDate", "index", "data", "isPinned", "settings", \
            "shareLink", "noteDescription", "template") \
            VALUES (1, 1, $1, 'Bench note', $2, 0, sha256('\\x010203'::bytea), false, '{"fontSize":14,"theme":"system"}', 'https://example.invalid/s/1', NULL, NULL)
            """, [noteUUID, created])
        try connection.query(
            """
            INSERT INTO "Item" ("_id", "_version", "name", "noteID", "note", "_pos_note") \
            SELECT i, 1, 'item ' || i, $2, 1, i - 1 FROM generate_series(1, $1::int8) i
            """, [count, noteUUID])
        try connection.query(
            """
            INSERT INTO "Memo" ("_id", "_version", "text", "createDate", "note", "_pos_note") \
            SELECT i, 1, 'memo ' || i, $2, 1, i - 1 FROM generate_series(1, $1::int8) i
            """, [count, created])
        try connection.query(
            """
            INSERT INTO "ItemData" ("_id", "_version", "createDate", "value", "item", "memo") \
            SELECT i, 1, $2, i * 0.5, i, i FROM generate_series(1, $1::int8) i
            """, [count, created])
        try connection.query(
            """
            INSERT INTO "_rel_Memo_tags" ("src", "dst") \
            SELECT i, 1 + (i % $2) FROM generate_series(1, $1::int8) i UNION ALL SELECT i, 1 + ((i + $2 / 2) % $2) FROM generate_series(1, $1::int8) i
            """, [count, .int8(Int64(tagCount))])
        // Binary values are blob references (docs/architecture.md#shared-blobs): each value is
        // stored once under its SHA-256, in chunks, and the attachment holds the key.
        let chunk = StoreSchema.blobChunkSize
        try connection.query(
            """
            INSERT INTO "_cloner_blobs" ("hash", "size") \
            SELECT sha256(overlay($2::bytea PLACING int8send(i) FROM 1)), length($2::bytea) FROM generate_series(1, $1::int8) i
            """, [count, .bytea(block)])
        try connection.query(
            """
            INSERT INTO "_cloner_blob_chunks" ("hash", "n", "bytes") \
            SELECT sha256(v), g.n, substr(v, (g.n * \(chunk) + 1)::int4, \(chunk)) \
            FROM (SELECT overlay($2::bytea PLACING int8send(i) FROM 1) AS v FROM generate_series(1, $1::int8) i) s \
            CROSS JOIN LATERAL generate_series(0, greatest((length(v) - 1) / \(chunk), 0)) AS g(n)
            """, [count, .bytea(block)])
        try connection.query(
            """
            INSERT INTO "Attachment" ("_id", "_version", "image", "mimeType", "memo") \
            SELECT i, 1, sha256(overlay($2::bytea PLACING int8send(i) FROM 1)), 'image/png', i FROM generate_series(1, $1::int8) i
            """, [count, .bytea(block)])
        // Explicit ids leave the identity sequences behind: move them past the rows.
        for table in ["Tag", "Note", "Item", "Memo", "ItemData", "Attachment"] {
            try connection.query(
                "SELECT setval(pg_get_serial_sequence($1, '_id'), (SELECT max(\"_id\") FROM \(quoted(table))))",
                [.text(quoted(table))])
        }
        try connection.execute("COMMIT")
        try connection.execute("VACUUM ANALYZE")
        return 1
    }
}
