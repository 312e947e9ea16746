import ClonerClone
import ClonerModel
import ClonerStore
import ClonerTestSupport
import Foundation
import Synchronization
import Testing

/// An import that numbers clashing values (`rebuild: suffix`) beside a clone that does, on
/// PostgreSQL, where both hold the attributes' locks until they commit: each takes all it needs at
/// once, in the one order of `CopySuffixLock`, so neither can hold one the other waits for while
/// it waits for another.
@Suite(.enabled(if: PostgreSQLTestCluster.isEnabled, Comment(rawValue: PostgreSQLTestCluster.skipReason)))
struct CopySuffixLockOrderTests {
    static let model = """
        { "entities": [
          { "name": "Board", "attributes": [ { "name": "title", "type": "string", "unique": true, "userInfo": { "rebuild": "suffix" } } ],
            "relationships": [ { "name": "cards", "destination": "Card", "toMany": true, "inverse": "board", "deleteRule": "cascade" } ] },
          { "name": "Card", "attributes": [ { "name": "code", "type": "string", "unique": true, "userInfo": { "rebuild": "suffix" } } ],
            "relationships": [ { "name": "board", "destination": "Board", "inverse": "cards" } ] }
        ] }
        """

    /// Sessions waiting for an advisory lock in the monitor's database (other tests share the
    /// cluster), seen from a connection of the test's own.
    static func advisoryLockWaits(_ monitor: PostgreSQLConnection) throws -> Int64 {
        try monitor.query(
            """
            SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
            """
        )[0].int64(0)
    }

    /// The import's first batch is of the entity whose lock comes last, as a document listing it
    /// first would give; a clone then starts and waits. Had the import locked that entity's
    /// attribute alone, the clone would hold the other and the import would wait for it: a
    /// deadlock, which the database here is told to look for only after a minute.
    @Test func anImportLocksEveryNumberedAttributeBeforeItsFirstBatch() throws {
        let database = try PostgreSQLTestCluster.shared.createDatabase()
        let uri = database.uri
        try PostgreSQLConnection(uri: uri).execute("ALTER DATABASE \"\(database.name)\" SET deadlock_timeout = '60s'")
        let model = try ModelLoader.load(data: Data(Self.model.utf8))
        let store = try IncrementalStore(location: .postgreSQL(uri: uri), model: model, maximumConnections: 4)
        let engine = CloneEngine(store: store)
        let board = try store.write { context in
            try context.save(
                ChangeSet(inserts: [
                    ChangeSet.Insert(entity: "Board", attributes: ["title": .string("Plan")]),
                    ChangeSet.Insert(entity: "Card", attributes: ["code": .string("C1")], relationships: ["board": .toOne(.inserted(0))]),
                ])
            ).insertedIDs[0]
        }
        let attributes = ["Board.title", "Card.code"]
        let last = try #require(CopySuffixLock.inLockOrder(attributes).last)
        let (first, firstAttribute) = (String(last.prefix { $0 != "." }), String(last.drop { $0 != "." }.dropFirst()))
        let other = first == "Board" ? ("Card", "code") : ("Board", "title")

        let importLocked = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        let outcome = Mutex<(importAttempts: Int, importError: String?, cloneError: String?)>((0, nil, nil))
        done.enter()
        DispatchQueue.global().async {
            defer { done.leave() }
            do {
                _ = try store.write { context in
                    let attempt = outcome.withLock {
                        $0.importAttempts += 1; return $0.importAttempts
                    }
                    let writer = context.graphRowWriter()
                    for name in attributes {
                        let parts = name.split(separator: ".").map(String.init)
                        writer.numberClashes(of: model.entity(named: parts[0])!, attribute: parts[1], suffix: CopySuffix())
                    }
                    // A full batch flushes, numbering its values under the locks.
                    for index in 0..<1_000 {
                        try writer.insert(model.entity(named: first)!, id: try writer.newID(first), attributes: [firstAttribute: .string("I\(index)")])
                    }
                    if attempt == 1 {
                        importLocked.signal()
                        let monitor = try PostgreSQLConnection(uri: uri)
                        try eventuallyBlocking("the clone waiting for a lock the import holds") { try Self.advisoryLockWaits(monitor) == 1 }
                    }
                    try writer.insert(model.entity(named: other.0)!, id: try writer.newID(other.0), attributes: [other.1: .string("Plan")])
                    return try writer.finish()
                }
            } catch {
                outcome.withLock { $0.importError = "\(error)" }
            }
        }
        #expect(importLocked.wait(timeout: .now() + 60) == .success, "the import's first batch")
        done.enter()
        DispatchQueue.global().async {
            defer { done.leave() }
            do {
                _ = try engine.clone(CloneRequest(entity: "Board", id: board))
            } catch {
                outcome.withLock { $0.cloneError = "\(error)" }
            }
        }
        let finished = done.wait(timeout: .now() + 45)
        #expect(finished == .success, "the import and the clone still wait for each other")
        let result = outcome.withLock { $0 }
        #expect(result.importError == nil && result.cloneError == nil, "\(result)")
        #expect(result.importAttempts == 1)
        // Both numbered their values: the import's board came second, the clone's third.
        let titles = try store.read { context in
            try context.fetchIDs(FetchRequest(entity: "Board")).map { try context.fetchObject(entity: "Board", id: $0)?.attributes["title"] }
        }
        #expect(Set(titles) == [.string("Plan"), .string("Plan (copy)"), .string("Plan (copy 2)")])
    }
}
