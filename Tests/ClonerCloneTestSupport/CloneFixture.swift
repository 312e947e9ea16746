import ClonerClone
import ClonerModel
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// A store on the sample model of `config/model.json` (or another model text), on either backend
/// (a temporary SQLite file, or a fresh database in the PostgreSQL test cluster), with helpers to
/// build graphs and read them back.
package final class CloneFixture {
    package let directory: TemporaryDirectory
    package let backend: StoreBackendKind
    package let database: PostgreSQLTestDatabase?
    package let store: IncrementalStore
    package let engine: CloneEngine

    package static let sampleModelURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("config/model.json")

    package static func sampleModel() throws -> DataModel { try ModelLoader.load(contentsOf: sampleModelURL) }

    package init(_ backend: StoreBackendKind = .sqlite, model: DataModel? = nil) throws {
        self.backend = backend
        directory = try TemporaryDirectory()
        let model = try model ?? CloneFixture.sampleModel()
        switch backend {
        case .sqlite:
            database = nil
            store = try IncrementalStore(path: directory.path("clone.sqlite"), model: model)
        case .postgreSQL:
            let database = try PostgreSQLTestCluster.shared.createDatabase()
            self.database = database
            store = try IncrementalStore(location: .postgreSQL(uri: database.uri), model: model, maximumConnections: 4)
        }
        engine = CloneEngine(store: store)
    }

    package convenience init(_ backend: StoreBackendKind = .sqlite, modelJSON: String) throws {
        try self.init(backend, model: ModelLoader.load(data: Data(modelJSON.utf8)))
    }

    package convenience init(modelJSON: String, _ backend: StoreBackendKind) throws {
        try self.init(backend, model: ModelLoader.load(data: Data(modelJSON.utf8)))
    }

    /// One count on the PostgreSQL database, on a connection of its own (committed rows only).
    package func postgreSQLCount(_ table: String) throws -> Int64 {
        let connection = try PostgreSQLConnection(uri: database!.uri)
        return try connection.query("SELECT count(*) FROM \"\(table)\"")[0].int64(0)
    }

    @discardableResult
    package func insert(_ inserts: [ChangeSet.Insert]) throws -> [Int64] {
        try store.write { try $0.save(ChangeSet(inserts: inserts)).insertedIDs }
    }

    package func object(_ entity: String, _ id: Int64) throws -> StoredObject {
        guard let object = try store.read({ try $0.fetchObject(entity: entity, id: id) }) else {
            throw CloneError.rootNotFound(entity: entity, id: id)
        }
        return object
    }

    package func ids(_ entity: String) throws -> [Int64] {
        try store.read { try $0.fetchIDs(FetchRequest(entity: entity)) }
    }

    package func toMany(_ entity: String, _ id: Int64, _ relationship: String) throws -> [Int64] {
        guard case .toMany(let ids)? = try object(entity, id).relationships[relationship] else { return [] }
        return ids
    }

    package func toOne(_ entity: String, _ id: Int64, _ relationship: String) throws -> Int64? {
        guard case .toOne(let id)? = try object(entity, id).relationships[relationship] else { return nil }
        return id
    }

    /// Row counts of every table, to prove a failed clone left nothing behind.
    package func rowCounts() throws -> [String: Int64] {
        if backend == .postgreSQL {
            var counts: [String: Int64] = [:]
            for entity in store.model.entities { counts[entity.name] = try postgreSQLCount(entity.name) }
            for table in store.schema.joinTables { counts[table.name] = try postgreSQLCount(table.name) }
            return counts
        }
        return try store.read { context in
            var counts: [String: Int64] = [:]
            for entity in context.model.entities {
                counts[entity.name] = try context.sqliteConnection.scalar("SELECT count(*) FROM \"\(entity.name)\"")?.int64
            }
            for table in context.schema.joinTables {
                counts[table.name] = try context.sqliteConnection.scalar("SELECT count(*) FROM \"\(table.name)\"")?.int64
            }
            return counts
        }
    }

    /// Runs `text` on the store as it is, outside the store's own writes: to make states only a
    /// damaged or moved store has.
    package func sql(_ text: String) throws {
        if backend == .sqlite {
            try store.write { try $0.sqliteConnection.execute(text) }
        } else {
            try PostgreSQLConnection(uri: database!.uri).execute(text)
        }
    }

    /// `bytes` as a literal of this backend's SQL.
    package func bytesLiteral(_ bytes: Data) -> String {
        backend == .sqlite ? "X'\(bytes.lowercaseHex)'" : "'\\x\(bytes.lowercaseHex)'::bytea"
    }

    /// A note with `items` items, each with one item data and its memo (with `tags` of the given
    /// tag ids), the memos also listed in the note's ordered `memos`, and a description.
    package struct SampleNote {
        package var note: Int64
        package var items: [Int64]
        package var itemDatas: [Int64]
        package var memos: [Int64]
        package var description: Int64
    }

    package func makeSampleNote(name: String = "Groceries", items count: Int = 3, tags: [Int64] = []) throws -> SampleNote {
        var inserts: [ChangeSet.Insert] = [
            ChangeSet.Insert(
                entity: "Note",
                attributes: [
                    "id": .uuid(UUID()), "name": .string(name), "createDate": .date(millisecondsSince1970: 1_600_000_000_000),
                    "index": .integer(4), "data": .binary(Data([1, 2, 3])), "shareLink": .string("https://x/s/1"),
                ]),
            ChangeSet.Insert(
                entity: "NoteDescription", attributes: ["content": .string("about \(name)")],
                relationships: ["note": .toOne(.inserted(0))]),
        ]
        var itemRefs: [Int] = [], dataRefs: [Int] = [], memoRefs: [Int] = []
        for index in 0..<count {
            itemRefs.append(inserts.count)
            inserts.append(
                ChangeSet.Insert(
                    entity: "Item", attributes: ["name": .string("item \(index)"), "noteID": .null],
                    relationships: ["note": .toOne(.inserted(0))]))
            dataRefs.append(inserts.count)
            inserts.append(
                ChangeSet.Insert(
                    entity: "ItemData", attributes: ["createDate": .date(millisecondsSince1970: 1_600_000_000_000), "value": .double(Double(index))],
                    relationships: ["item": .toOne(.inserted(itemRefs.last!))]))
            memoRefs.append(inserts.count)
            inserts.append(
                ChangeSet.Insert(
                    entity: "Memo", attributes: ["text": .string("memo \(index)"), "createDate": .date(millisecondsSince1970: 1_600_000_000_000)],
                    relationships: [
                        "itemData": .toOne(.inserted(dataRefs.last!)), "note": .toOne(.inserted(0)),
                        "tags": .toMany(tags.map { .existing($0) }),
                    ]))
        }
        let ids = try insert(inserts)
        // Items point at their note's id, as the followParent rule expects of originals too.
        let noteUUID = try object("Note", ids[0]).attributes["id"]!
        try store.write { context in
            _ = try context.save(ChangeSet(updates: itemRefs.map { ChangeSet.Update(entity: "Item", id: ids[$0], attributes: ["noteID": noteUUID]) }))
        }
        return SampleNote(
            note: ids[0], items: itemRefs.map { ids[$0] }, itemDatas: dataRefs.map { ids[$0] },
            memos: memoRefs.map { ids[$0] }, description: ids[1])
    }

    package func makeTags(_ names: [String]) throws -> [Int64] {
        try insert(names.map { ChangeSet.Insert(entity: "Tag", attributes: ["name": .string($0)]) })
    }
}
