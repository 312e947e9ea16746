@testable import ClonerStore
import ClonerConcurrency
import ClonerTestSupport
import Foundation
import Testing

/// A node that stops taking writes, as a primary demoted in a failover does: its sessions look
/// healthy and refuse every write (SQLSTATE 25006). One refusal drops every session the pool
/// opened before it, and a write that found a stale session runs once more on a fresh one.
@Suite(.requiresPostgreSQL)
struct PostgreSQLNodeLossTests {
    @Test func oneSessionFindingItsNodeLostDropsTheOthersAndTheNextWriteTellsItIsBack() throws {
        let database = try PostgreSQLFixtures.database()
        let events = LockedValue<[StoreConnectionEvent]>([])
        let pool = PostgreSQLConnectionPool(configuration: .init(uri: database.uri, maximumConnections: 3)) { event in
            events.withLock { $0.append(event) }
        }
        // Three sessions, each told to refuse writes from now on, back in the pool.
        try pool.withConnection { first in
            try pool.withConnection { second in
                try pool.withConnection { third in
                    for connection in [first, second, third] { try connection.execute("SET default_transaction_read_only = on") }
                }
            }
        }
        #expect(pool.statistics.open == 3)

        let refused = #expect(throws: PostgreSQLError.self) {
            try pool.withConnection { connection in try connection.transaction { try connection.execute("CREATE TABLE t (x int)") } }
        }
        #expect(refused?.code == .readOnlySQLTransaction)
        #expect(refused?.isNodeLost == true)
        #expect(refused?.outcomeUnknown == false, "refused before its COMMIT: nothing was written")
        #expect(pool.statistics.open == 0, "the two idle sessions went with the one that found the loss")
        #expect(pool.statistics.nodeLosses == 1)
        guard case .lost(let reason)? = events.withLock({ $0.last }) else {
            Issue.record("no loss told: \(events.withLock { $0 })")
            return
        }
        #expect(reason.contains("25006"), "\(reason)")

        try pool.withConnection { connection in
            try connection.transaction { try connection.execute("CREATE TABLE t (x int)") }
            pool.noteWriteCommitted(on: connection)
        }
        #expect(events.withLock { $0.count } == 2)
        guard case .restored(let node)? = events.withLock({ $0.last }) else {
            Issue.record("no return told: \(events.withLock { $0 })")
            return
        }
        #expect(node.contains("socket"), "\(node)")
        #expect(pool.statistics.reconnects == 1)
    }

    @Test func aWriteThatMeetsAStaleSessionRunsOnceMoreOnAFreshOne() throws {
        let database = try PostgreSQLFixtures.database()
        let events = LockedValue<[StoreConnectionEvent]>([])
        let store = try IncrementalStore(
            location: .postgreSQL(uri: database.uri), model: StoreFixtures.notesModel(), connectionEvents: { event in events.withLock { $0.append(event) } })
        // The session the next write borrows refuses writes from its next transaction on, as one
        // to a primary demoted since would.
        try store.write { context in try context.postgreSQLConnection.execute("SET SESSION default_transaction_read_only = on") }
        let id = try store.write { try $0.save(ChangeSet(inserts: [StoreFixtures.note("after")])).insertedIDs[0] }
        #expect(try store.read { try $0.fetchRecords(entity: "Note", ids: [id]).count } == 1)
        #expect(store.connectionStatistics?.nodeLosses == 1)
        #expect(events.withLock { $0.count } == 2, "lost, then back: \(events.withLock { $0 })")
    }
}
