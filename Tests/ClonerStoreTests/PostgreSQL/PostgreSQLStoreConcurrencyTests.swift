import ClonerModel
import ClonerConcurrency
@testable import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// What only the PostgreSQL store has to get right: text without NUL, a database that belongs to
/// someone else, replicas preparing one database together, writers running in parallel.
@Suite(.requiresPostgreSQL) struct PostgreSQLStoreConcurrencyTests {
    @Test func aStringWithNULIsRefusedNamingTheAttributeAndNothingIsWritten() throws {
        let place = try StorePlace(.postgreSQL)
        let store = try place.open()
        #expect {
            try store.save(ChangeSet(inserts: [StoreFixtures.note("fine"), StoreFixtures.note("nul\u{0}tail")]))
        } throws: { error in
            guard case StoreError.invalidValue("Note", "name", let reason) = error else { return false }
            return reason.contains("U+0000")
        }
        #expect {
            try store.save(ChangeSet(inserts: [ChangeSet.Insert(entity: "Item", attributes: ["extra": .json("\"\u{0}\"")])]))
        } throws: { error in
            guard case StoreError.invalidValue("Item", "extra", _) = error else { return false }
            return true
        }
        #expect(try store.read { try $0.fetchIDs(FetchRequest(entity: "Note")) }.isEmpty)
        // A filter on such a string matches nothing, as nothing stored can hold it.
        #expect(try store.read { try $0.fetchIDs(FetchRequest(entity: "Note", predicates: [.init("name", .string("a\u{0}"))])) }.isEmpty)
    }

    @Test func aDatabaseHoldingOtherTablesIsRefused() throws {
        let database = try PostgreSQLTestCluster.shared.createDatabase()
        let connection = try PostgreSQLConnection(uri: database.uri(password: "hunter2"))
        try connection.execute("CREATE TABLE invoices (id int8)")
        #expect {
            _ = try IncrementalStore(location: StoreLocation(database.uri(password: "hunter2")), model: StoreFixtures.notesModel())
        } throws: { error in
            guard case StoreError.incompatibleStore(let place, let reason) = error else { return false }
            return reason.contains("invoices") && reason.contains("no Cloner metadata") && !"\(error)".contains("hunter2") && place.contains("***")
        }
        let tables = try connection.query("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")[0].int64(0)
        #expect(tables == 1, "nothing was created beside the foreign table")
    }

    /// What an extension installs in the database (here `pg_stat_statements`, which a
    /// pg_auto_failover node and many managed services put in every database) is not another
    /// application's: the store is created beside it. A real table beside it is still refused.
    @Test func objectsAnExtensionOwnsAreNotAnotherApplicationsTables() throws {
        let database = try PostgreSQLTestCluster.shared.createDatabase()
        let connection = try PostgreSQLConnection(uri: database.uri)
        try connection.execute("CREATE EXTENSION pg_stat_statements")
        let views = try connection.query("SELECT count(*) FROM pg_views WHERE schemaname = 'public' AND viewname LIKE 'pg_stat_statements%'")[0].int64(0)
        #expect(views >= 1, "the extension installed no view to be mistaken for a table")
        let store = try IncrementalStore(location: StoreLocation(database.uri), model: StoreFixtures.notesModel())
        #expect(try store.write { try $0.save(ChangeSet(inserts: [StoreFixtures.note("beside an extension")])) }.insertedIDs.count == 1)

        let other = try PostgreSQLTestCluster.shared.createDatabase()
        let otherConnection = try PostgreSQLConnection(uri: other.uri)
        try otherConnection.execute("CREATE EXTENSION pg_stat_statements")
        try otherConnection.execute("CREATE TABLE invoices (id int8)")
        #expect {
            _ = try IncrementalStore(location: StoreLocation(other.uri), model: StoreFixtures.notesModel())
        } throws: { error in
            guard case StoreError.incompatibleStore(_, let reason) = error else { return false }
            return reason.contains("invoices") && !reason.contains("pg_stat_statements")
        }
    }

    /// A replica starting beside live ones must not lock their tables: a live replica's open
    /// transaction on the job and idempotency tables (a clone holding its reservation, a lease
    /// scan) does not hold up a second store opening the same, current database. Preparation
    /// used to run `ALTER TABLE … ADD COLUMN IF NOT EXISTS` regardless, which waits for that
    /// transaction (and deadlocked with a scan when two replicas started together).
    @Test func openingACurrentDatabaseTakesNoLockOnTheServiceTables() throws {
        let database = try PostgreSQLTestCluster.shared.createDatabase()
        _ = try IncrementalStore(location: .postgreSQL(uri: database.uri), model: StoreFixtures.notesModel())
        let live = try PostgreSQLConnection(uri: database.uri)
        try live.execute("BEGIN")
        try live.execute("LOCK TABLE \"_cloner_jobs\", \"_cloner_idempotency\" IN ROW EXCLUSIVE MODE")
        let opener = try PostgreSQLConnection(uri: database.uri)
        // Fail fast instead of hanging if preparation wants a table lock.
        try opener.execute("SET lock_timeout = '2s'")
        let layout = PostgreSQLSchema(schema: StoreSchema(model: StoreFixtures.notesModel()))
        let started = ContinuousClock.now
        #expect(throws: Never.self) { _ = try PostgreSQLStore.prepare(connection: opener, layout: layout) }
        #expect(ContinuousClock.now - started < .seconds(1))
        try live.execute("ROLLBACK")
    }

    /// Replicas starting together on an empty database: one creates the schema under the
    /// advisory lock, the others wait and find it — every one opens, all with the same UUID.
    @Test func replicasStartingTogetherPrepareOnce() throws {
        let database = try PostgreSQLTestCluster.shared.createDatabase()
        let results = LockedValue<[Result<String, any Error>]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            let result = Result {
                try IncrementalStore(location: .postgreSQL(uri: database.uri), model: StoreFixtures.notesModel(), maximumConnections: 2).storeUUID
            }
            results.withLock { $0.append(result) }
        }
        let uuids = try results.withLock { try $0.map { try $0.get() } }
        #expect(uuids.count == 6)
        #expect(Set(uuids).count == 1)
        // And a migration run by several at once is applied once.
        let migrated = StoreFixtures.notesModel(renameIndex: true)
        let again = LockedValue<[Result<String, any Error>]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let result = Result { try IncrementalStore(location: .postgreSQL(uri: database.uri), model: migrated, maximumConnections: 2).storeUUID }
            again.withLock { $0.append(result) }
        }
        #expect(try again.withLock { try Set($0.map { try $0.get() }) } == Set(uuids))
    }

    /// Two writers with the same `If-Match` version at once: exactly one wins, the other sees the
    /// version it lost to — as on SQLite, where writers take turns — even though nothing here
    /// serialises them in-process (the loser's serialization failure runs its body again).
    @Test func concurrentVersionCheckedWritesLetExactlyOneWin() throws {
        let place = try StorePlace(.postgreSQL)
        let store = try place.open()
        let id = try store.save(ChangeSet(inserts: [StoreFixtures.note("n")])).insertedIDs[0]
        for round in 0..<5 {
            let version = try #require(try store.read { try $0.version(entity: "Note", id: id) })
            let outcomes = LockedValue<[String]>([])
            let shared = store
            DispatchQueue.concurrentPerform(iterations: 4) { writer in
                do {
                    _ = try shared.write {
                        try $0.save(
                            ChangeSet(updates: [
                                ChangeSet.Update(
                                    entity: "Note", id: id, expectedVersion: version,
                                    attributes: ["name": .string("r\(round)w\(writer)")])
                            ]))
                    }
                    outcomes.withLock { $0.append("won") }
                } catch StoreError.versionConflict(_, _, let expected, let actual) where expected == version && actual == version + 1 {
                    outcomes.withLock { $0.append("conflict") }
                } catch {
                    outcomes.withLock { $0.append("\(error)") }
                }
            }
            #expect(outcomes.withLock { $0.sorted() } == ["conflict", "conflict", "conflict", "won"], "round \(round)")
            #expect(try store.read { try $0.version(entity: "Note", id: id) } == version + 1)
        }
    }

    /// Writers touching the same rows without version checks all succeed: deadlocks and
    /// serialization failures between them are retried, never surfaced.
    @Test func concurrentWritesToSharedListsAllCommit() throws {
        let place = try StorePlace(.postgreSQL)
        let store = try place.open()
        let ids = try store.save(ChangeSet(inserts: [StoreFixtures.note("n")] + (0..<8).map { _ in ChangeSet.Insert(entity: "Item") })).insertedIDs
        let failures = LockedValue<[String]>([])
        let shared = store
        DispatchQueue.concurrentPerform(iterations: 4) { writer in
            do {
                for _ in 0..<3 {
                    _ = try shared.write {
                        try $0.save(
                            ChangeSet(updates: [ChangeSet.Update(entity: "Item", id: ids[1 + writer], relationships: ["note": .toOne(.existing(ids[0]))])]))
                    }
                    _ = try shared.write {
                        try $0.save(ChangeSet(updates: [ChangeSet.Update(entity: "Item", id: ids[1 + writer], relationships: ["note": .toOne(nil)])]))
                    }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(try store.object("Note", ids[0])?.version == 1 + 4 * 3 * 2)
    }

    @Test func serviceTablesRoundTripAndInterruptedJobsFail() throws {
        let place = try StorePlace(.postgreSQL)
        let store = try place.open()
        let created = Date(timeIntervalSince1970: 1_700_000_000.123)
        try store.write { context in
            try context.saveIdempotencyRecord(
                IdempotencyRecord(key: "k1", fingerprint: "f", status: 202, location: "/jobs/j1", body: Data([1, 2]), createdAt: created))
            try context.saveIdempotencyRecord(
                IdempotencyRecord(key: "k2", fingerprint: "f", status: 201, location: "/notes/1", body: Data(), createdAt: created))
            try context.saveJob(JobRecord(id: "j1", status: .running, request: Data([3]), createdAt: created))
            try context.saveJob(JobRecord(id: "j2", status: .succeeded, request: Data(), result: Data([4]), createdAt: created, finishedAt: created))
        }
        #expect(
            try store.read { try $0.idempotencyRecord(key: "k2") }
                == IdempotencyRecord(key: "k2", fingerprint: "f", status: 201, location: "/notes/1", body: Data(), createdAt: created))
        let failed = try store.write { try $0.failExpiredLeases(error: Data([9]), now: created.addingTimeInterval(1), excludingOwner: "live").jobs }
        #expect(failed == 1)
        #expect(try store.read { try $0.idempotencyRecord(key: "k1") } == nil, "the answer pointing at the interrupted job is forgotten")
        let job = try #require(try store.read { try $0.job(id: "j1") })
        #expect(job.status == .failed && job.error == Data([9]) && job.finishedAt == created.addingTimeInterval(1))
        #expect(try store.write { try $0.purgeJobs(finishedBefore: created.addingTimeInterval(0.5)) } == 1)
        #expect(try store.write { try $0.purgeIdempotencyRecords(olderThan: created.addingTimeInterval(1)) } == 1)
        #expect(try store.read { try $0.job(id: "j2") } == nil)
    }
}
