import ClonerStore
import Foundation

extension ReferenceCopy {
    /// The yardstick on PostgreSQL: the same copy as `run(in:)` written by hand in PostgreSQL's
    /// dialect, in one REPEATABLE READ transaction as the store's writes are — a temporary old →
    /// new `_id` table per entity filled from the table's identity sequence, then one
    /// INSERT … SELECT per table joining the maps, the join rows, and the shared tags' versions.
    /// Blobs are copied inside the server. Returns the new note's `_id`.
    func run(postgreSQL connection: PostgreSQLConnection, now: Date = Date()) throws -> Int64 {
        let maps = ["item", "memo", "itemdata", "attachment"]
        try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        do {
            try connection.execute(
                maps.map {
                    "CREATE TEMP TABLE IF NOT EXISTS \"_ref_\($0)\" (old int8 PRIMARY KEY, new int8 NOT NULL)"
                }.joined(separator: "; ") + "; TRUNCATE " + maps.map { "pg_temp.\"_ref_\($0)\"" }.joined(separator: ", "))
            let root = PostgreSQLValue.int8(self.root)
            let nowValue = PostgreSQLValue.timestamptz(millisecondsSince1970: Int64((now.timeIntervalSince1970 * 1_000).rounded()))
            func sequence(_ table: String) -> String { "nextval(pg_get_serial_sequence('\"\(table)\"', '_id'))" }

            try connection.query(
                """
                INSERT INTO pg_temp."_ref_item" (old, new) SELECT "_id", \(sequence("Item")) FROM "Item" WHERE "note" = $1 ORDER BY "_id"
                """, [root])
            try connection.query(
                """
                INSERT INTO pg_temp."_ref_memo" (old, new) SELECT "_id", \(sequence("Memo")) FROM "Memo" WHERE "note" = $1 ORDER BY "_id"
                """, [root])
            try connection.query(
                """
                INSERT INTO pg_temp."_ref_itemdata" (old, new) SELECT d."_id", \(sequence("ItemData")) \
                FROM pg_temp."_ref_item" m JOIN "ItemData" d ON d."item" = m.old ORDER BY d."_id"
                """)
            try connection.query(
                """
                INSERT INTO pg_temp."_ref_attachment" (old, new) SELECT a."_id", \(sequence("Attachment")) \
                FROM pg_temp."_ref_memo" m JOIN "Attachment" a ON a."memo" = m.old ORDER BY a."_id"
                """)
            try connection.execute("ANALYZE pg_temp.\"_ref_item\", pg_temp.\"_ref_memo\", pg_temp.\"_ref_itemdata\", pg_temp.\"_ref_attachment\"")

            let newNote = try connection.query(
                """
                INSERT INTO "Note" ("_id", "_version", "id", "name", "createDate", "index", "data", "isPinned", "settings", \
                "shareLink", "noteDescription", "template") \
                SELECT \(sequence("Note")), 1, gen_random_uuid(), "name", $2, "index", "data", "isPinned", "settings", NULL, NULL, "template" \
                FROM "Note" WHERE "_id" = $1 RETURNING "_id", "id"
                """, [root, nowValue])
            let note = newNote[0].int64(0)
            let noteUUID = PostgreSQLValue.uuid(newNote[0].uuid(1))
            try connection.query(
                """
                INSERT INTO "Item" ("_id", "_version", "name", "noteID", "note", "_pos_note") \
                SELECT m.new, 1, o."name", $2, $1, o."_pos_note" FROM pg_temp."_ref_item" m JOIN "Item" o ON o."_id" = m.old ORDER BY m.new
                """, [.int8(note), noteUUID])
            try connection.query(
                """
                INSERT INTO "Memo" ("_id", "_version", "text", "createDate", "note", "_pos_note") \
                SELECT m.new, 1, o."text", $2, $1, o."_pos_note" FROM pg_temp."_ref_memo" m JOIN "Memo" o ON o."_id" = m.old ORDER BY m.new
                """, [.int8(note), nowValue])
            try connection.query(
                """
                INSERT INTO "ItemData" ("_id", "_version", "createDate", "value", "item", "memo") \
                SELECT m.new, 1, $1, o."value", i.new, x.new FROM pg_temp."_ref_itemdata" m JOIN "ItemData" o ON o."_id" = m.old \
                LEFT JOIN pg_temp."_ref_item" i ON i.old = o."item" LEFT JOIN pg_temp."_ref_memo" x ON x.old = o."memo" ORDER BY m.new
                """, [nowValue])
            try connection.query(
                """
                INSERT INTO "Attachment" ("_id", "_version", "image", "mimeType", "memo") \
                SELECT m.new, 1, o."image", o."mimeType", x.new FROM pg_temp."_ref_attachment" m JOIN "Attachment" o ON o."_id" = m.old \
                LEFT JOIN pg_temp."_ref_memo" x ON x.old = o."memo" ORDER BY m.new
                """)
            try connection.query(
                """
                INSERT INTO "_rel_Memo_tags" ("src", "dst") SELECT m.new, j."dst" FROM pg_temp."_ref_memo" m JOIN "_rel_Memo_tags" j ON j."src" = m.old
                """)
            // The shared tags gained members: their records changed, as the Cloner marks them.
            try connection.query(
                """
                UPDATE "Tag" SET "_version" = "_version" + 1 WHERE "_id" IN \
                (SELECT j."dst" FROM pg_temp."_ref_memo" m JOIN "_rel_Memo_tags" j ON j."src" = m.old)
                """)
            try connection.execute("COMMIT")
            return note
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
