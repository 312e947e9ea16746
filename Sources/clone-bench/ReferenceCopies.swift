import ClonerModel
import ClonerStore
import Foundation

/// The yardstick for many copies: `copies` copies of a bench note written by hand
/// set-based — one pass for all copies, not the one-copy `ReferenceCopy` run in a loop — as a
/// developer who knows the graph's shape and wants speed would write them. It applies the same
/// clone rules as `ReferenceCopy` (a new uuid per copy for `Note.id`, generated per row inside
/// SQLite; `createDate` = now; `Item.noteID` = that copy's note's uuid; references and join rows
/// re-pointed into their own copy; tag links shared, each linked tag's version bumped once) and
/// writes exactly the rows the Cloner's batch writes (`BenchVerification` checks both).
///
/// How:
/// 1. The source rows go once into staging tables in the temp database, each with its rank (its
///    place in old-id order). Every INSERT then reads a staging table, never the table it
///    writes: an `INSERT INTO t SELECT … FROM t` makes SQLite buffer the SELECT's whole result
///    (blobs included) in an ephemeral table first, N times the source for N copies.
/// 2. A copies table (0..<N) crossed with each staging table fills a map keyed (copy, old) →
///    new, new = base + copy × count + rank: copy k's ids follow copy k-1's, in old-id order.
/// 3. One INSERT … SELECT per table over (map JOIN staging) for all copies, references looked up
///    in the referenced entity's map under the same copy number. `ORDER BY m.copy, m.old` is the
///    map's key order and new-id order, so rows are appended without a sort.
///
/// Every statement is prepared once per connection (`cachedStatement`); the temp tables are
/// created once and emptied after each run, never dropped (a schema change would re-prepare
/// every cached statement).
struct ReferenceCopies {
    let root: Int64
    let copies: Int

    /// Copies the note `copies` times inside the caller's write transaction; returns the new
    /// notes' `_id`s, copy 0 first.
    func run(in context: any StoreContext, now: Date = Date()) throws -> [Int64] {
        precondition(copies > 0, "copies must be positive, got \(copies)")
        let connection = context.sqliteConnection
        let nowValue = AttributeValue.date(now).sqlValue
        for sql in ReferenceCopies.setup { try connection.cachedStatement(sql).execute() }
        defer { for table in ReferenceCopies.workTables { try? connection.cachedStatement("DELETE FROM temp.\"\(table)\"").execute() } }

        // 1. Stage the source rows once, ranked in old-id order.
        try connection.execute(
            """
            INSERT INTO temp."_refs_copies" (copy) \
            SELECT value FROM (WITH RECURSIVE c(value) AS (SELECT 0 UNION ALL SELECT value + 1 FROM c WHERE value + 1 < ?1) SELECT value FROM c)
            """, [.integer(Int64(copies))])
        try connection.execute(
            """
            INSERT INTO temp."_refs_src_note" ("_id", "name", "index", "data", "isPinned", "settings", "template") \
            SELECT "_id", "name", "index", "data", "isPinned", "settings", "template" FROM main."Note" WHERE "_id" = ?1
            """, [.integer(root)])
        try connection.execute(
            """
            INSERT INTO temp."_refs_src_item" ("_id", r, "name", "_pos_note") \
            SELECT "_id", row_number() OVER (ORDER BY "_id"), "name", "_pos_note" FROM main."Item" WHERE "note" = ?1
            """, [.integer(root)])
        let itemCount = connection.changes
        try connection.execute(
            """
            INSERT INTO temp."_refs_src_memo" ("_id", r, "text", "_pos_note") \
            SELECT "_id", row_number() OVER (ORDER BY "_id"), "text", "_pos_note" FROM main."Memo" WHERE "note" = ?1
            """, [.integer(root)])
        let memoCount = connection.changes
        try connection.execute(
            """
            INSERT INTO temp."_refs_src_itemdata" ("_id", r, "value", "item", "memo") \
            SELECT d."_id", row_number() OVER (ORDER BY d."_id"), d."value", d."item", d."memo" \
            FROM main."ItemData" d WHERE d."item" IN (SELECT "_id" FROM temp."_refs_src_item")
            """, [])
        let itemDataCount = connection.changes
        try connection.execute(
            """
            INSERT INTO temp."_refs_src_attachment" ("_id", r, "image", "mimeType", "memo") \
            SELECT a."_id", row_number() OVER (ORDER BY a."_id"), a."image", a."mimeType", a."memo" \
            FROM main."Attachment" a WHERE a."memo" IN (SELECT "_id" FROM temp."_refs_src_memo")
            """, [])
        let attachmentCount = connection.changes
        try connection.execute(
            """
            INSERT INTO temp."_refs_src_tags" (src, dst) \
            SELECT j."src", j."dst" FROM main."_rel_Memo_tags" j WHERE j."src" IN (SELECT "_id" FROM temp."_refs_src_memo")
            """, [])

        // 2. Maps (copy, old) → new for every copy at once; the note's map also draws its uuid.
        let noteBase = try ReferenceCopy.nextID(connection, "Note")
        try connection.execute(
            """
            INSERT INTO temp."_refs_note" (copy, new, uuid) SELECT copy, ?1 + copy + 1, \(ReferenceCopies.uuidExpression) \
            FROM temp."_refs_copies" ORDER BY copy
            """, [.integer(noteBase)])
        for (table, count) in [("Item", itemCount), ("Memo", memoCount), ("ItemData", itemDataCount), ("Attachment", attachmentCount)] {
            let name = table.lowercased()
            try connection.execute(
                """
                INSERT INTO temp."_refs_\(name)" (copy, old, new) SELECT c.copy, s."_id", ?1 + c.copy * ?2 + s.r \
                FROM temp."_refs_copies" c CROSS JOIN temp."_refs_src_\(name)" s ORDER BY c.copy, s."_id"
                """, [.integer(try ReferenceCopy.nextID(connection, table)), .integer(Int64(count))])
        }

        // 3. One INSERT … SELECT per table for all copies, in new-id order.
        try connection.execute(
            """
            INSERT INTO "Note" ("_id", "_version", "id", "name", "createDate", "index", "data", "isPinned", "settings", \
            "shareLink", "noteDescription", "template") \
            SELECT n.new, 1, n.uuid, o."name", ?1, o."index", o."data", o."isPinned", o."settings", NULL, NULL, o."template" \
            FROM temp."_refs_note" n CROSS JOIN temp."_refs_src_note" o ORDER BY n.copy
            """, [nowValue])
        try connection.execute(
            """
            INSERT INTO "Item" ("_id", "_version", "name", "noteID", "note", "_pos_note") \
            SELECT m.new, 1, o."name", n.uuid, n.new, o."_pos_note" \
            FROM temp."_refs_item" m JOIN temp."_refs_src_item" o ON o."_id" = m.old JOIN temp."_refs_note" n ON n.copy = m.copy \
            ORDER BY m.copy, m.old
            """, [])
        try connection.execute(
            """
            INSERT INTO "Memo" ("_id", "_version", "text", "createDate", "note", "_pos_note") \
            SELECT m.new, 1, o."text", ?1, n.new, o."_pos_note" \
            FROM temp."_refs_memo" m JOIN temp."_refs_src_memo" o ON o."_id" = m.old JOIN temp."_refs_note" n ON n.copy = m.copy \
            ORDER BY m.copy, m.old
            """, [nowValue])
        try connection.execute(
            """
            INSERT INTO "ItemData" ("_id", "_version", "createDate", "value", "item", "memo") \
            SELECT m.new, 1, ?1, o."value", i.new, x.new \
            FROM temp."_refs_itemdata" m JOIN temp."_refs_src_itemdata" o ON o."_id" = m.old \
            LEFT JOIN temp."_refs_item" i ON i.copy = m.copy AND i.old = o."item" \
            LEFT JOIN temp."_refs_memo" x ON x.copy = m.copy AND x.old = o."memo" \
            ORDER BY m.copy, m.old
            """, [nowValue])
        try connection.execute(
            """
            INSERT INTO "Attachment" ("_id", "_version", "image", "mimeType", "memo") \
            SELECT m.new, 1, o."image", o."mimeType", x.new \
            FROM temp."_refs_attachment" m JOIN temp."_refs_src_attachment" o ON o."_id" = m.old \
            JOIN temp."_refs_memo" x ON x.copy = m.copy AND x.old = o."memo" \
            ORDER BY m.copy, m.old
            """, [])
        try connection.execute(
            """
            INSERT INTO "_rel_Memo_tags" ("src", "dst") SELECT m.new, j.dst \
            FROM temp."_refs_memo" m JOIN temp."_refs_src_tags" j ON j.src = m.old ORDER BY m.copy, m.old, j.dst
            """, [])
        // The shared tags gained members: each changed once, however many copies link to it, as
        // the Cloner's batch marks them.
        try connection.execute(
            """
            UPDATE "Tag" SET "_version" = "_version" + 1 WHERE "_id" IN (SELECT dst FROM temp."_refs_src_tags")
            """, [])
        return (1...Int64(copies)).map { noteBase + $0 }
    }

    /// A random (version 4) UUID in canonical lower-case text, drawn per row inside SQLite.
    static let uuidExpression = """
        lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' \
        || substr('89AB', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))
        """

    /// The temp tables, emptied after every run.
    static let workTables = [
        "_refs_copies", "_refs_src_note", "_refs_src_item", "_refs_src_memo", "_refs_src_itemdata", "_refs_src_attachment",
        "_refs_src_tags", "_refs_note", "_refs_item", "_refs_memo", "_refs_itemdata", "_refs_attachment",
    ]

    /// Created once per connection. Staging tables keep values as stored (no column affinity)
    /// with the old `_id` as rowid; maps are keyed (copy, old), which is also new-id order.
    static let setup =
        [
            // As the Cloner does for its maps: a temp page cache of 16 MiB instead of 2, so the maps
            // and staged blobs of 100 copies stay in memory rather than spilling to the temp file.
            "PRAGMA temp.cache_size = -16384",
            "CREATE TEMP TABLE IF NOT EXISTS \"_refs_copies\" (copy INTEGER PRIMARY KEY)",
            "CREATE TEMP TABLE IF NOT EXISTS \"_refs_src_note\" (\"_id\" INTEGER PRIMARY KEY, \"name\", \"index\", \"data\", \"isPinned\", \"settings\", \"template\")",
            "CREATE TEMP TABLE IF NOT EXISTS \"_refs_src_item\" (\"_id\" INTEGER PRIMARY KEY, r INTEGER NOT NULL, \"name\", \"_pos_note\")",
            "CREATE TEMP TABLE IF NOT EXISTS \"_refs_src_memo\" (\"_id\" INTEGER PRIMARY KEY, r INTEGER NOT NULL, \"text\", \"_pos_note\")",
            "CREATE TEMP TABLE IF NOT EXISTS \"_refs_src_itemdata\" (\"_id\" INTEGER PRIMARY KEY, r INTEGER NOT NULL, \"value\", \"item\", \"memo\")",
            "CREATE TEMP TABLE IF NOT EXISTS \"_refs_src_attachment\" (\"_id\" INTEGER PRIMARY KEY, r INTEGER NOT NULL, \"image\", \"mimeType\", \"memo\")",
            "CREATE TEMP TABLE IF NOT EXISTS \"_refs_src_tags\" (src INTEGER NOT NULL, dst INTEGER NOT NULL, PRIMARY KEY (src, dst)) WITHOUT ROWID",
            "CREATE TEMP TABLE IF NOT EXISTS \"_refs_note\" (copy INTEGER PRIMARY KEY, new INTEGER NOT NULL, uuid TEXT NOT NULL)",
        ]
        + ["item", "memo", "itemdata", "attachment"].map { name in
            "CREATE TEMP TABLE IF NOT EXISTS \"_refs_\(name)\" (copy INTEGER NOT NULL, old INTEGER NOT NULL, new INTEGER NOT NULL, PRIMARY KEY (copy, old)) WITHOUT ROWID"
        }
}
