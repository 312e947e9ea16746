import ClonerModel
import ClonerStore
import Foundation

/// The yardstick: the same copy of a bench note written by hand as one INSERT … SELECT per table,
/// with an old → new `_id` table per entity. It applies the sample model's clone rules as far as
/// they cost anything — a new uuid for `Note.id`, `createDate` = now, `Item.noteID` = the new
/// note's id, references and join rows re-pointed into the copy, tag links shared (and the tags'
/// versions bumped), blobs copied inside SQLite — and knows the graph's shape in advance, which
/// the Cloner must discover by walking the model. Whatever the Cloner spends beyond this is the
/// price of being generic.
struct ReferenceCopy {
    let root: Int64

    /// Copies the note inside the caller's write transaction; returns the new note's `_id`.
    func run(in context: any StoreContext, now: Date = Date()) throws -> Int64 {
        let connection = context.sqliteConnection
        let nowValue = AttributeValue.date(now).sqlValue
        let maps = ["item", "memo", "itemdata", "attachment"]
        for name in maps {
            try connection.execute("CREATE TEMP TABLE IF NOT EXISTS \"_ref_\(name)\" (old INTEGER PRIMARY KEY, new INTEGER NOT NULL)")
            try connection.execute("DELETE FROM temp.\"_ref_\(name)\"")
        }
        defer { for name in maps { try? connection.execute("DELETE FROM temp.\"_ref_\(name)\"") } }

        // New ids follow old-id order, so `ORDER BY m.old` (the map's rowid order) writes rows in
        // new-id order without a sort; sorting by `new` would push every blob through a sorter.
        let newNote = try ReferenceCopy.nextID(connection, "Note") + 1
        try connection.execute(
            """
            INSERT INTO temp."_ref_item" (old, new) SELECT "_id", ?2 + row_number() OVER (ORDER BY "_id") FROM "Item" WHERE "note" = ?1
            """, [.integer(root), .integer(try ReferenceCopy.nextID(connection, "Item"))])
        try connection.execute(
            """
            INSERT INTO temp."_ref_memo" (old, new) SELECT "_id", ?2 + row_number() OVER (ORDER BY "_id") FROM "Memo" WHERE "note" = ?1
            """, [.integer(root), .integer(try ReferenceCopy.nextID(connection, "Memo"))])
        try connection.execute(
            """
            INSERT INTO temp."_ref_itemdata" (old, new) SELECT d."_id", ?1 + row_number() OVER (ORDER BY d."_id") \
            FROM temp."_ref_item" m JOIN "ItemData" d ON d."item" = m.old
            """, [.integer(try ReferenceCopy.nextID(connection, "ItemData"))])
        try connection.execute(
            """
            INSERT INTO temp."_ref_attachment" (old, new) SELECT a."_id", ?1 + row_number() OVER (ORDER BY a."_id") \
            FROM temp."_ref_memo" m JOIN "Attachment" a ON a."memo" = m.old
            """, [.integer(try ReferenceCopy.nextID(connection, "Attachment"))])

        try connection.execute(
            """
            INSERT INTO "Note" ("_id", "_version", "id", "name", "createDate", "index", "data", "isPinned", "settings", \
            "shareLink", "noteDescription", "template") \
            SELECT ?2, 1, ?3, "name", ?4, "index", "data", "isPinned", "settings", NULL, NULL, "template" FROM "Note" WHERE "_id" = ?1
            """, [.integer(root), .integer(newNote), .text(UUID().uuidString.lowercased()), nowValue])
        try connection.execute(
            """
            INSERT INTO "Item" ("_id", "_version", "name", "noteID", "note", "_pos_note") \
            SELECT m.new, 1, o."name", (SELECT "id" FROM "Note" WHERE "_id" = ?1), ?1, o."_pos_note" \
            FROM temp."_ref_item" m JOIN "Item" o ON o."_id" = m.old ORDER BY m.old
            """, [.integer(newNote)])
        try connection.execute(
            """
            INSERT INTO "Memo" ("_id", "_version", "text", "createDate", "note", "_pos_note") \
            SELECT m.new, 1, o."text", ?2, ?1, o."_pos_note" FROM temp."_ref_memo" m JOIN "Memo" o ON o."_id" = m.old ORDER BY m.old
            """, [.integer(newNote), nowValue])
        try connection.execute(
            """
            INSERT INTO "ItemData" ("_id", "_version", "createDate", "value", "item", "memo") \
            SELECT m.new, 1, ?1, o."value", (SELECT i.new FROM temp."_ref_item" i WHERE i.old = o."item"), \
            (SELECT x.new FROM temp."_ref_memo" x WHERE x.old = o."memo") \
            FROM temp."_ref_itemdata" m JOIN "ItemData" o ON o."_id" = m.old ORDER BY m.old
            """, [nowValue])
        try connection.execute(
            """
            INSERT INTO "Attachment" ("_id", "_version", "image", "mimeType", "memo") \
            SELECT m.new, 1, o."image", o."mimeType", (SELECT x.new FROM temp."_ref_memo" x WHERE x.old = o."memo") \
            FROM temp."_ref_attachment" m JOIN "Attachment" o ON o."_id" = m.old ORDER BY m.old
            """, [])
        try connection.execute(
            """
            INSERT INTO "_rel_Memo_tags" ("src", "dst") SELECT m.new, j."dst" FROM temp."_ref_memo" m JOIN "_rel_Memo_tags" j ON j."src" = m.old
            """, [])
        // The shared tags gained members: their records changed, as the Cloner marks them.
        try connection.execute(
            """
            UPDATE "Tag" SET "_version" = "_version" + 1 WHERE "_id" IN \
            (SELECT j."dst" FROM temp."_ref_memo" m JOIN "_rel_Memo_tags" j ON j."src" = m.old)
            """, [])
        return newNote
    }

    /// The highest `_id` the table has used, so new ids never reuse a deleted one (AUTOINCREMENT);
    /// `ReferenceCopies` numbers its copies from it too.
    static func nextID(_ connection: SQLiteConnection, _ table: String) throws -> Int64 {
        try connection.scalar(
            """
            SELECT max(coalesce((SELECT max("_id") FROM \(quoted(table))), 0), coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?1), 0))
            """, [.text(table)])?.int64 ?? 0
    }
}
