import ClonerModel
@testable import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

@Suite struct SchemaTests {
    @Test(arguments: StoreBackendKind.available) func createsTablesColumnsAndIndexes(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        let (tables, indexes, itemColumns) = try store.read { context -> (Set<String?>, Set<String?>, [String?]) in
            switch kind {
            case .sqlite:
                #expect(try context.rawTexts("PRAGMA journal_mode") == ["wal"])
                return (
                    Set(try context.rawTexts("SELECT name FROM sqlite_master WHERE type = 'table'")),
                    Set(try context.rawTexts("SELECT name FROM sqlite_master WHERE type = 'index'")),
                    try context.rawTexts("SELECT name FROM pragma_table_info('Item') ORDER BY cid")
                )
            case .postgreSQL:
                return (
                    Set(try context.rawTexts("SELECT tablename::text FROM pg_tables WHERE schemaname = current_schema()")),
                    Set(try context.rawTexts("SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema()")),
                    try context.rawTexts(
                        """
                        SELECT column_name::text FROM information_schema.columns
                        WHERE table_schema = current_schema() AND table_name = 'Item' ORDER BY ordinal_position
                        """)
                )
            }
        }
        #expect(tables.isSuperset(of: ["Note", "Item", "Tag", "NoteDescription", "Card", "_cloner_meta", "_rel_Item_tags", "_rel_Card_links"]))
        #expect(itemColumns == ["_id", "_version", "note", "_pos_note", "name", "score", "done", "extra"], "references before attributes")
        #expect(indexes.contains("Item_note_fk"))
        #expect(indexes.contains("Tag_name_unique"))
        #expect(indexes.contains("Note_noteDescription_fk"), "one-to-one column lives on the side with the smaller qualified name")
        #expect(indexes.contains("_rel_Item_tags_dst"))
        #expect(!store.storeUUID.isEmpty)
    }

    @Test func storageOfEachRelationshipShape() {
        let schema = StoreSchema(model: StoreFixtures.notesModel())
        let model = schema.model
        let rel = { (entity: String, name: String) in model.entity(named: entity)!.relationship(named: name)! }
        #expect(schema.storage(of: rel("Item", "note")) == .foreignKeyOnSource(column: "note"))
        #expect(schema.storage(of: rel("Note", "items")) == .foreignKeyOnDestination(column: "note", positionColumn: "_pos_note"))
        #expect(schema.storage(of: rel("Note", "noteDescription")) == .foreignKeyOnSource(column: "noteDescription"))
        #expect(schema.storage(of: rel("NoteDescription", "note")) == .foreignKeyOnDestination(column: "noteDescription", positionColumn: nil))
        #expect(
            schema.storage(of: rel("Item", "tags")) == .joinTable(table: "_rel_Item_tags", sourceColumn: "src", destinationColumn: "dst", positionColumn: nil))
        #expect(
            schema.storage(of: rel("Tag", "items"))
                == .joinTable(table: "_rel_Item_tags", sourceColumn: "dst", destinationColumn: "src", positionColumn: "dst_pos"))
        #expect(schema.storage(of: rel("Card", "next")) == .foreignKeyOnSource(column: "next"))
        #expect(
            schema.storage(of: rel("Card", "links"))
                == .joinTable(table: "_rel_Card_links", sourceColumn: "src", destinationColumn: "dst", positionColumn: "src_pos"))
    }

    @Test(arguments: StoreBackendKind.available) func reopeningWithTheSameModelKeepsDataAndIdentity(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let first = try StoreFixtures.openStore(place)
        let id = try first.write { try $0.save(ChangeSet(inserts: [StoreFixtures.note("kept")])).insertedIDs[0] }
        let uuid = first.storeUUID
        let second = try StoreFixtures.openStore(place)
        #expect(second.storeUUID == uuid)
        let note = try second.read { try $0.fetchObject(entity: "Note", id: id) }
        #expect(note?.attributes["name"] == .string("kept"))
    }

    @Test func refusesAFileThatIsNotADatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("store.sqlite")
        try Data(repeating: 0x42, count: 8192).write(to: URL(fileURLWithPath: path))
        #expect {
            try IncrementalStore(path: path, model: StoreFixtures.notesModel())
        } throws: { error in
            guard case StoreError.incompatibleStore(let failing, let reason) = error else { return false }
            return failing == path && reason.contains("not a SQLite database")
        }
    }

    @Test func refusesACorruptDatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("store.sqlite")
        do {
            let store = try IncrementalStore(path: path, model: StoreFixtures.notesModel())
            try store.write { context in
                for index in 0..<400 {
                    _ = try context.save(ChangeSet(inserts: [StoreFixtures.note(String(repeating: "n", count: 200) + "\(index)")]))
                }
            }
            store.closeIdleConnections()
        }
        do {
            let raw = try SQLiteConnection(path: path)
            try raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        // Scribble over pages in the middle of the file, past the header.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: 4096 * 3)
        handle.write(Data(repeating: 0xFF, count: 4096 * 4))
        try handle.close()
        #expect {
            try IncrementalStore(path: path, model: StoreFixtures.notesModel())
        } throws: { error in
            guard case StoreError.incompatibleStore(_, let reason) = error else { return false }
            return reason.contains("integrity") || reason.contains("not a SQLite database") || reason.contains("malformed")
        }
    }

    @Test func refusesAnotherApplicationsDatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("other.sqlite")
        let foreign = try SQLiteConnection(path: path)
        try foreign.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
        #expect {
            try IncrementalStore(path: path, model: StoreFixtures.notesModel())
        } throws: { error in
            guard case StoreError.incompatibleStore(_, let reason) = error else { return false }
            return reason.contains("customers") && reason.contains("no Cloner metadata")
        }
    }
}
