import ClonerModel
@testable import ClonerStore
import Foundation
import Testing

@Suite struct SchemaTests {
    @Test func createsTablesColumnsAndIndexes() throws {
        let directory = TemporaryDirectory()
        let store = try StoreFixtures.openStore(directory)
        let (tables, indexes, itemColumns, journal) = try store.read { context -> (Set<String>, Set<String>, [String], String) in
            var tables: Set<String> = [], indexes: Set<String> = [], columns: [String] = []
            try context.sqliteConnection.forEachRow("SELECT type, name FROM sqlite_master") { row in
                if row.string(0) == "table" { tables.insert(row.string(1)) } else if row.string(0) == "index" { indexes.insert(row.string(1)) }
            }
            try context.sqliteConnection.forEachRow("PRAGMA table_info(\"Item\")") { columns.append($0.string(1)) }
            let journal = try context.sqliteConnection.scalar("PRAGMA journal_mode")?.string ?? ""
            return (tables, indexes, columns, journal)
        }
        #expect(tables.isSuperset(of: ["Note", "Item", "Tag", "NoteDescription", "Card", "_cloner_meta", "_rel_Item_tags", "_rel_Card_links"]))
        #expect(itemColumns == ["_id", "_version", "note", "_pos_note", "name", "score", "done", "extra"], "references before attributes")
        #expect(indexes.contains("Item_note_fk"))
        #expect(indexes.contains("Tag_name_unique"))
        #expect(indexes.contains("Note_noteDescription_fk"), "one-to-one column lives on the side with the smaller qualified name")
        #expect(indexes.contains("_rel_Item_tags_dst"))
        #expect(journal == "wal")
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
        #expect(schema.storage(of: rel("Item", "tags")) == .joinTable(table: "_rel_Item_tags", sourceColumn: "src", destinationColumn: "dst", positionColumn: nil))
        #expect(schema.storage(of: rel("Tag", "items")) == .joinTable(table: "_rel_Item_tags", sourceColumn: "dst", destinationColumn: "src", positionColumn: "dst_pos"))
        #expect(schema.storage(of: rel("Card", "next")) == .foreignKeyOnSource(column: "next"))
        #expect(schema.storage(of: rel("Card", "links")) == .joinTable(table: "_rel_Card_links", sourceColumn: "src", destinationColumn: "dst", positionColumn: "src_pos"))
    }

    @Test func reopeningWithTheSameModelKeepsDataAndIdentity() throws {
        let directory = TemporaryDirectory()
        let first = try StoreFixtures.openStore(directory)
        let id = try first.write { try $0.save(ChangeSet(inserts: [StoreFixtures.note("kept")])).insertedIDs[0] }
        let uuid = first.storeUUID
        let second = try StoreFixtures.openStore(directory)
        #expect(second.storeUUID == uuid)
        let note = try second.read { try $0.fetchObject(entity: "Note", id: id) }
        #expect(note?.attributes["name"] == .string("kept"))
    }

    @Test func refusesAFileThatIsNotADatabase() throws {
        let directory = TemporaryDirectory()
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
        let directory = TemporaryDirectory()
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
        let directory = TemporaryDirectory()
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
