@testable import ClonerStore
import Foundation
import Testing

/// The pool is bounded, times out rather than queueing forever, and re-opens lost sessions.
@Suite(.requiresPostgreSQL)
struct PostgreSQLConnectionPoolTests {
    @Test func killedBackendIsReopenedOnNextUse() throws {
        let database = try PostgreSQLFixtures.database()
        let admin = try PostgreSQLFixtures.connect(database)
        let pool = PostgreSQLConnectionPool(configuration: .init(uri: database.uri, maximumConnections: 2))
        let (firstPID, firstSocket) = try pool.withConnection { connection throws in
            #expect(try connection.cachedQuery("SELECT $1::int8", [.int8(7)])[0].int64(0) == 7)
            return (connection.backendPID, PostgreSQLFixtures.socket(of: connection))
        }
        try PostgreSQLFixtures.terminate(backend: firstPID, socket: firstSocket, admin: admin)

        let (secondPID, value) = try pool.withConnection { connection in
            // The prepared statement died with the session: it is prepared again.
            (connection.backendPID, try connection.cachedQuery("SELECT $1::int8", [.int8(8)])[0].int64(0))
        }
        #expect(secondPID != firstPID)
        #expect(value == 8)
        #expect(pool.statistics.open == 1)
    }

    @Test func lostConnectionIsAnErrorThenReopensOutsideATransaction() throws {
        let database = try PostgreSQLFixtures.database()
        let admin = try PostgreSQLFixtures.connect(database)
        let connection = try PostgreSQLFixtures.connect(database)
        try connection.execute("CREATE TABLE t (id int8 PRIMARY KEY)")
        let pid = connection.backendPID

        // Killed inside a transaction: the body fails with a connection error, nothing half-commits.
        #expect {
            try connection.transaction {
                try connection.query("INSERT INTO t VALUES (1)")
                try PostgreSQLFixtures.terminate(backend: pid, socket: PostgreSQLFixtures.socket(of: connection), admin: admin)
                try connection.query("INSERT INTO t VALUES (2)")
            }
        } throws: { error in
            (error as? PostgreSQLError)?.isConnectionLost == true
        }
        // The next statement outside a transaction re-opens the session.
        #expect(try connection.query("SELECT count(*) FROM t")[0].int64(0) == 0)
        #expect(connection.backendPID != pid)
    }

    @Test func exhaustedPoolTimesOutWithAnError() throws {
        let database = try PostgreSQLFixtures.database()
        let pool = PostgreSQLConnectionPool(
            configuration: .init(
                uri: database.uri, maximumConnections: 1, checkoutTimeout: .milliseconds(300)))
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? pool.withConnection { _ in
                holding.signal()
                release.wait()
            }
            finished.signal()
        }
        holding.wait()
        let start = Date()
        var caught: PostgreSQLError?
        do { try pool.withConnection { _ in Issue.record("got a connection beyond the maximum") } } catch { caught = error as? PostgreSQLError }
        let waited = Date().timeIntervalSince(start)
        #expect(caught?.kind == .poolExhausted)
        #expect(caught.map { String(describing: $0).contains("exhausted") } == true)
        #expect(waited >= 0.29)
        #expect(waited < 5)

        // A waiter is handed the connection as soon as it comes back.
        let slowPool = PostgreSQLConnectionPool(
            configuration: .init(
                uri: database.uri, maximumConnections: 1, checkoutTimeout: .seconds(10)))
        let slowHolding = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? slowPool.withConnection { _ in
                slowHolding.signal()
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
        slowHolding.wait()
        #expect(try slowPool.withConnection { try $0.query("SELECT 1::int8")[0].int64(0) } == 1)
        #expect(slowPool.statistics.open == 1)
        release.signal()
        finished.wait()
    }

    @Test func connectionReturnsWithoutItsOpenTransaction() throws {
        let database = try PostgreSQLFixtures.database()
        let pool = PostgreSQLConnectionPool(configuration: .init(uri: database.uri, maximumConnections: 1))
        try pool.withConnection { try $0.execute("CREATE TABLE t (id int8)") }
        try pool.withConnection { connection in
            try connection.execute("BEGIN")
            try connection.query("INSERT INTO t VALUES (1)")
        }
        try pool.withConnection { connection throws in
            #expect(connection.isInTransaction == false)
            #expect(try connection.query("SELECT count(*) FROM t")[0].int64(0) == 0)
        }
    }

    @Test func closedPoolRefusesCheckouts() throws {
        let database = try PostgreSQLFixtures.database()
        let pool = PostgreSQLConnectionPool(configuration: .init(uri: database.uri, maximumConnections: 2))
        try pool.withConnection { _ in }
        pool.close()
        #expect(pool.statistics.open == 0)
        #expect(throws: PostgreSQLError.self) { try pool.withConnection { _ in } }
    }
}
