import ClonerStore
import Foundation

/// The graph the benchmark clones: one note of `items` items, each item with one ItemData whose
/// Memo (one-to-one with it, and listed in the note's ordered `memos`) links to 2 of `tagCount`
/// tags and owns one attachment of `attachmentBytes` random bytes.
///
/// Built set-wise with one INSERT … SELECT per table over a recursive counter, straight through
/// the store's connection: building 100k items through change sets would take longer than the
/// benchmark itself. The column lists are the store's own layout for config/model.json
/// (`StoreSchema`); `BenchVerification` reads a small graph back through the store's fetch API to
/// prove the two agree.
struct BenchDataSet {
    var items: Int
    var attachmentBytes: Int
    var tagCount = 50

    /// The note's creation time; any fixed value, so the clone's `now` visibly differs.
    static let createdMilliseconds: Int64 = 1_600_000_000_000

    /// Fills a fresh store and returns the note's `_id`. Ids start at 1 in every table, so item,
    /// item data, memo and attachment `i` belong together, which keeps every statement a plain
    /// projection of the counter.
    func build(in store: IncrementalStore) throws -> Int64 {
        precondition(items > 0 && tagCount >= 2, "a bench note needs items and at least two tags")
        return try store.write { context in
            let connection = context.sqliteConnection
            let existing = try connection.scalar("SELECT count(*) FROM \"Note\"")?.int64 ?? 0
            precondition(existing == 0, "the bench data set is built into a fresh store only")

            let counter = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1) "
            let created = SQLiteValue.integer(BenchDataSet.createdMilliseconds)
            let noteUUID = SQLiteValue.text(UUID().uuidString.lowercased())

            try connection.execute(
                counter + """
                    INSERT INTO "Tag" ("_id", "_version", "name", "color") \
                    SELECT i, 1, 'tag ' || i, CASE i % 3 WHEN 0 THEN 'red' WHEN 1 THEN 'green' ELSE NULL END FROM n
                    """, [.integer(Int64(tagCount))])
            // Binary values are blob references (docs/architecture.md#shared-blobs): the note's
            // value is stored under its real key; see the attachments below for theirs.
            let noteData = BlobDigest.sha256(Data([1, 2, 3]))
            try connection.execute("INSERT INTO \"_cloner_blobs\" (\"hash\", \"size\") VALUES (?, 3)", [.blob(noteData)])
            try connection.execute("INSERT INTO \"_cloner_blob_chunks\" (\"hash\", \"n\", \"bytes\") VALUES (?, 0, x'010203')", [.blob(noteData)])
            try connection.execute(
                """
                INSERT INTO "Note" ("_id", "_version", "id", "name", "createDate", "index", "data", "isPinned", "settings", \
                "shareLink", "noteDescription", "template") \
                VALUES (1, 1, ?1, 'Bench note', ?2, 0, ?3, 0, '{"fontSize":14,"theme":"system"}', 'https://example.invalid/s/1', NULL, NULL)
                """, [noteUUID, created, .blob(noteData)])
            try connection.execute(
                counter + """
                    INSERT INTO "Item" ("_id", "_version", "name", "noteID", "note", "_pos_note") \
                    SELECT i, 1, 'item ' || i, ?2, 1, i - 1 FROM n
                    """, [.integer(Int64(items)), noteUUID])
            try connection.execute(
                counter + """
                    INSERT INTO "Memo" ("_id", "_version", "text", "createDate", "note", "_pos_note") \
                    SELECT i, 1, 'memo ' || i, ?2, 1, i - 1 FROM n
                    """, [.integer(Int64(items)), created])
            try connection.execute(
                counter + """
                    INSERT INTO "ItemData" ("_id", "_version", "createDate", "value", "item", "memo") \
                    SELECT i, 1, ?2, i * 0.5, i, i FROM n
                    """, [.integer(Int64(items)), created])
            // Two different tags per memo: offsets 0 and tagCount/2 never coincide.
            try connection.execute(
                counter + """
                    INSERT INTO "_rel_Memo_tags" ("src", "dst") \
                    SELECT i, 1 + (i % ?2) FROM n UNION ALL SELECT i, 1 + ((i + ?2 / 2) % ?2) FROM n
                    """, [.integer(Int64(items)), .integer(Int64(tagCount))])
            // One blob per attachment: random bytes stored under their SHA-256, as the store keeps
            // every blob, so that `cloner check-store` finds the store sound and an import of the
            // note's document finds the blobs it names already there, as it would in a real store.
            // SQLite has no SHA-256, so the bytes are made and hashed here, one attachment at a
            // time (a gibibyte of them is never held at once).
            // At least one word of SplitMix64 output, so no two attachments' bytes are alike: with
            // `--blob-bytes 0` the store refused a setup of 100 items, the second blob of one
            // byte repeating an earlier one's.
            let size = max(attachmentBytes, 8), chunk = StoreSchema.blobChunkSize
            // SplitMix64 from a random seed: fast enough for a gibibyte, and never a repeat (its
            // output is a bijection of a counter).
            var state = UInt64.random(in: .min ... .max)
            for item in 1...Int64(items) {
                var bytes = Data(count: (size + 7) / 8 * 8)
                bytes.withUnsafeMutableBytes { raw in
                    for word in 0..<(raw.count / 8) {
                        state &+= 0x9E37_79B9_7F4A_7C15
                        var z = state
                        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                        raw.storeBytes(of: z ^ (z >> 31), toByteOffset: word * 8, as: UInt64.self)
                    }
                }
                bytes.count = size
                let key = BlobDigest.sha256(bytes)
                try connection.execute("INSERT INTO \"_cloner_blobs\" (\"hash\", \"size\") VALUES (?, ?)", [.blob(key), .integer(Int64(size))])
                for (n, offset) in stride(from: 0, to: size, by: chunk).enumerated() {
                    try connection.execute(
                        "INSERT INTO \"_cloner_blob_chunks\" (\"hash\", \"n\", \"bytes\") VALUES (?, ?, ?)",
                        [.blob(key), .integer(Int64(n)), .blob(bytes.subdata(in: offset..<min(offset + chunk, size)))])
                }
                try connection.execute(
                    "INSERT INTO \"Attachment\" (\"_id\", \"_version\", \"image\", \"mimeType\", \"memo\") VALUES (?1, 1, ?2, 'image/png', ?1)",
                    [.integer(item), .blob(key)])
            }
            return 1
        }
    }
}
