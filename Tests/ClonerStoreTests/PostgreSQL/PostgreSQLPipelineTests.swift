@testable import ClonerStore
import ClonerTestSupport
import Testing

/// `PostgreSQLConnection.pipeline`: many statements in one round trip, with the same outcomes,
/// in the same order, as sending them one by one.
@Suite(.requiresPostgreSQL)
struct PostgreSQLPipelineTests {
    @Test func preparedAndUnpreparedStatementsAnswerInOrder() throws {
        let connection = try PostgreSQLFixtures.connection()
        try connection.execute("CREATE TABLE t (id int8 PRIMARY KEY, name text NOT NULL)")
        let insert = "INSERT INTO t (id, name) VALUES ($1, $2) RETURNING id"
        let outcomes = try connection.transaction {
            try connection.pipeline([
                .init(insert, [.int8(1), .text("one")], isPrepared: true),
                .init(insert, [.int8(2), .text("two")], isPrepared: true),
                .init("SELECT count(*) FROM t", [], isPrepared: false),
                .init("SELECT name FROM t WHERE id = $1", [.int8(2)], isPrepared: true),
            ])
        }
        #expect(try outcomes.map { try $0.get().rowCount } == [1, 1, 1, 1])
        #expect(try outcomes[1].get()[0].int64(0) == 2)
        #expect(try outcomes[2].get()[0].int64(0) == 2, "the third statement saw the first two")
        #expect(try outcomes[3].get()[0].string(0) == "two")
        // Prepared once: the insert (sent twice) and the last select.
        #expect(connection.cachedStatementCount == 2)
        // The session is usable as usual afterwards, and the cache serves the next call.
        #expect(try connection.cachedQuery(insert, [.int8(3), .text("three")])[0].int64(0) == 3)
        #expect(connection.cachedStatementCount == 2)
    }

    @Test func aFailedStatementFailsTheRestAndTheTransaction() throws {
        let connection = try PostgreSQLFixtures.connection()
        try connection.execute("CREATE TABLE t (id int8 PRIMARY KEY)")
        let insert = "INSERT INTO t (id) VALUES ($1)"
        #expect(throws: PostgreSQLError.self) {
            try connection.transaction {
                let outcomes = try connection.pipeline([
                    .init(insert, [.int8(1)], isPrepared: true),
                    .init(insert, [.int8(1)], isPrepared: true),
                    .init(insert, [.int8(2)], isPrepared: false),
                ])
                #expect((try? outcomes[0].get()) != nil)
                for outcome in outcomes.dropFirst() {
                    guard case .failure(let error) = outcome else {
                        Issue.record("a statement at or after the failure succeeded")
                        continue
                    }
                    #expect(error.code == .uniqueViolation, "\(error)")
                }
                _ = try outcomes[1].get()
            }
        }
        #expect(!connection.isInTransaction, "rolled back")
        #expect(try connection.query("SELECT count(*) FROM t")[0].int64(0) == 0)
    }

    private func rows(_ connection: PostgreSQLConnection) throws -> [[Int64]] {
        var rows: [[Int64]] = []
        try connection.query("SELECT id, version FROM t ORDER BY id").forEachRow { rows.append([$0.int64(0), $0.int64(1)]) }
        return rows
    }

    @Test func statementsBeforeCommitRunWithItAndAFailureRollsBackEverything() throws {
        let connection = try PostgreSQLFixtures.connection()
        try connection.execute("CREATE TABLE t (id int8 PRIMARY KEY, version int8 NOT NULL)")
        try connection.execute("INSERT INTO t VALUES (1, 1)")
        let step = "UPDATE t SET version = version + 1 WHERE id = $1"
        let commit = PostgreSQLCommitStatements()
        try connection.transaction(participant: commit) {
            try connection.query("INSERT INTO t VALUES (2, 1)")
            commit.statementsBeforeCommit.append(.init(step, [.int8(1)], isPrepared: true))
            #expect(try connection.query("SELECT version FROM t WHERE id = 1")[0].int64(0) == 1, "not run before the commit")
        }
        #expect(!connection.isInTransaction && commit.statementsBeforeCommit.isEmpty)
        #expect(try rows(connection) == [[1, 2], [2, 1]])

        // A deferred statement that fails: nothing of the transaction stays, and the session is
        // usable with an empty list.
        #expect(throws: PostgreSQLError.self) {
            try connection.transaction(participant: commit) {
                try connection.query("INSERT INTO t VALUES (3, 1)")
                commit.statementsBeforeCommit.append(.init(step, [.int8(1)], isPrepared: true))
                commit.statementsBeforeCommit.append(.init("INSERT INTO t VALUES (2, 1)", [], isPrepared: false))
            }
        }
        #expect(!connection.isInTransaction && commit.statementsBeforeCommit.isEmpty)
        #expect(try rows(connection) == [[1, 2], [2, 1]])

        // A body that throws leaves none behind for the next transaction.
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try connection.transaction(participant: commit) {
                commit.statementsBeforeCommit.append(.init(step, [.int8(1)], isPrepared: true))
                throw Stop()
            }
        }
        try connection.transaction(participant: commit) {}
        #expect(try connection.query("SELECT version FROM t WHERE id = 1")[0].int64(0) == 2)
    }

    /// Statements after the COMMIT go out with it, and the transaction answers without reading
    /// theirs: they are read before the session's next command, which sees what they did, and a
    /// failed one's `ifFailed` runs then. Past a failure before the COMMIT they are read at once.
    @Test func statementsAfterCommitAreReadBeforeTheNextCommand() throws {
        let connection = try PostgreSQLFixtures.connection()
        try connection.execute("CREATE TABLE t (id int8 PRIMARY KEY, version int8 NOT NULL)")
        // The connection runs `ifFailed` on the caller's thread.
        final class Failures {
            var names: [String] = []
        }
        let failures = Failures()
        let commit = PostgreSQLCommitStatements()
        try connection.transaction(participant: commit) {
            try connection.query("INSERT INTO t VALUES (1, 1)")
            commit.statementsAfterCommit.append(
                (.init("UPDATE t SET version = 2 WHERE id = 1", [], isPrepared: false), { failures.names.append("update") }))
            commit.statementsAfterCommit.append((.init("SELECT 1 / 0", [], isPrepared: false), { failures.names.append("division") }))
        }
        #expect(failures.names.isEmpty, "nothing after the COMMIT read yet")
        #expect(!connection.isInTransaction)
        #expect(try rows(connection) == [[1, 2]], "the next command sees the update")
        #expect(failures.names == ["division"])

        // The session's check before it is lent reads them too.
        try connection.transaction(participant: commit) {
            commit.statementsAfterCommit.append((.init("SELECT 1 / 0", [], isPrepared: false), { failures.names.append("checked") }))
        }
        #expect(connection.isHealthy)
        #expect(failures.names == ["division", "checked"])

        // A failure before the COMMIT: the transaction rolls back, and what came after it is read
        // (and failed, in the aborted transaction) before the error reaches the caller.
        #expect(throws: PostgreSQLError.self) {
            try connection.transaction(participant: commit) {
                try connection.query("INSERT INTO t VALUES (2, 1)")
                commit.statementsBeforeCommit.append(.init("INSERT INTO t VALUES (1, 1)", [], isPrepared: false))
                commit.statementsAfterCommit.append(
                    (.init("UPDATE t SET version = 3 WHERE id = 1", [], isPrepared: false), { failures.names.append("late") }))
            }
        }
        #expect(failures.names == ["division", "checked", "late"])
        #expect(try rows(connection) == [[1, 2]])
    }

    @Test func aStatementThatCannotBePreparedIsNotCached() throws {
        let connection = try PostgreSQLFixtures.connection()
        let outcomes = try connection.pipeline([
            .init("SELECT 1::int8", [], isPrepared: true),
            .init("SELEC 2", [], isPrepared: true),
            .init("SELECT 3", [], isPrepared: true),
        ])
        #expect(try outcomes[0].get()[0].int64(0) == 1)
        guard case .failure(let error) = outcomes[1] else {
            Issue.record("a syntax error was accepted")
            return
        }
        #expect(error.code?.rawValue == "42601", "\(error)")
        #expect(error.sql == "SELEC 2")
        #expect(connection.cachedStatementCount == 1, "only the statement prepared before the error stays")
        // Outside a transaction the session goes on.
        #expect(try connection.cachedQuery("SELECT 3::int8")[0].int64(0) == 3)
    }

    /// A transaction's BEGIN goes out with its first command, whichever kind it is: a one-query
    /// write is two round trips (the query, the COMMIT), a one-query read one, and a transaction
    /// that sends nothing none.
    @Test func theBeginTravelsWithTheFirstCommand() throws {
        let connection = try PostgreSQLFixtures.connection()
        try connection.execute("CREATE TABLE t (id int8 PRIMARY KEY)")
        let firsts: [(String, (PostgreSQLConnection) throws -> Void)] = [
            ("cachedQuery", { try $0.cachedQuery("INSERT INTO t VALUES ($1)", [.int8(1)]) }),
            ("query", { try $0.query("INSERT INTO t VALUES ($1)", [.int8(2)]) }),
            ("execute", { try $0.execute("INSERT INTO t VALUES (3)") }),
            ("pipeline", { _ = try $0.pipeline([.init("INSERT INTO t VALUES ($1)", [.int8(4)], isPrepared: true)]) }),
        ]
        for (kind, first) in firsts {
            let (_, roundTrips) = try connection.countingRoundTrips {
                try connection.transaction {
                    try first(connection)
                    // The BEGIN went out: what follows is inside the transaction.
                    #expect(connection.isInTransaction, "\(kind)")
                }
            }
            #expect(roundTrips == 2, "\(kind): \(roundTrips) round trips")
        }
        #expect(try connection.query("SELECT count(*) FROM t")[0].int64(0) == 4, "all four committed")
        // A failed first command rolls back what it began: nothing stays open on the session.
        #expect(throws: PostgreSQLError.self) { try connection.transaction { try connection.cachedQuery("INSERT INTO t VALUES ($1)", [.int8(1)]) } }
        #expect(!connection.isInTransaction)
        let (_, idle) = try connection.countingRoundTrips { try connection.transaction(.repeatableRead, readOnly: true) {} }
        #expect(idle == 0, "a transaction that sent nothing sent no BEGIN or COMMIT")
        // A read waits for its statements only: its COMMIT is answered with the next command.
        let (count, reading) = try connection.countingRoundTrips {
            try connection.transaction(.repeatableRead, readOnly: true) { try connection.query("SELECT count(*) FROM t")[0].int64(0) }
        }
        #expect(count == 4 && reading == 1, "\(reading) round trips for a one-query read")
        #expect(try connection.query("SELECT count(*) FROM t")[0].int64(0) == 4)
        #expect(!connection.isInTransaction)
    }

    /// A write no one waits for (a save's new rows) goes out ahead of the next command, in its
    /// round trip, or with the COMMIT; its failure is that command's, naming the write, and the
    /// transaction's.
    @Test func aWriteNoOneWaitsForTravelsWithTheNextCommand() throws {
        let connection = try PostgreSQLFixtures.connection()
        try connection.execute("CREATE TABLE t (id int8 PRIMARY KEY, note text)")
        let insert = "INSERT INTO t (id) VALUES ($1)"
        let count = { try connection.query("SELECT count(*) FROM t")[0].int64(0) }
        let (seen, roundTrips) = try connection.countingRoundTrips {
            try connection.transaction {
                try connection.performBeforeNextCommand(insert, values: [.int8(1)])
                return try connection.cachedQuery("SELECT count(*) FROM t")[0].int64(0)
            }
        }
        #expect(seen == 1 && roundTrips == 2, "the read saw \(seen) rows in \(roundTrips) round trips, its COMMIT's included")
        let (_, atCommit) = try connection.countingRoundTrips {
            try connection.transaction { try connection.performBeforeNextCommand(insert, values: [.int8(2)]) }
        }
        #expect(atCommit == 1, "a write left for the COMMIT: \(atCommit) round trips")
        // The simple protocol cannot carry it: it goes first, on its own.
        try connection.transaction {
            try connection.performBeforeNextCommand(insert, values: [.int8(3)])
            try connection.execute("SAVEPOINT s")
        }
        #expect(try count() == 3)
        let failsOnTheClash = { (error: any Error) in
            let error = error as? PostgreSQLError
            return error?.code == .uniqueViolation && error?.sql == insert
        }
        #expect {
            try connection.transaction {
                try connection.performBeforeNextCommand(insert, values: [.int8(4)])
                try connection.performBeforeNextCommand(insert, values: [.int8(1)])
                _ = try connection.cachedQuery("SELECT 1")
            }
        } throws: { failsOnTheClash($0) }
        #expect {
            try connection.transaction {
                try connection.performBeforeNextCommand(insert, values: [.int8(5)])
                try connection.performBeforeNextCommand(insert, values: [.int8(2)])
            }
        } throws: { failsOnTheClash($0) }
        #expect(try count() == 3, "neither failed transaction left a row")
        #expect(!connection.isInTransaction)
        // Past what may wait ahead of a command, a write goes out at once and is waited for.
        let long = String(repeating: "x", count: PostgreSQLConnection.pipelineBytes)
        let (_, longTrips) = try connection.countingRoundTrips {
            try connection.transaction {
                try connection.performBeforeNextCommand("INSERT INTO t (id, note) VALUES ($1, $2)", values: [.int8(6), .text(long)])
                #expect(connection.pendingWrites.isEmpty)
            }
        }
        #expect(longTrips == 2, "a long write and the COMMIT: \(longTrips) round trips")
        #expect(try count() == 4)
    }

    /// A session lost while idle fails the next transaction at its first command, which carries
    /// the BEGIN: a lost node with nothing written (not an unknown outcome), which the store's
    /// write runs again on another session.
    @Test func aSessionLostWhileIdleFailsTheFirstCommandAsNothingWritten() throws {
        let database = try PostgreSQLFixtures.database()
        let connection = try PostgreSQLFixtures.connect(database)
        let admin = try PostgreSQLFixtures.connect(database)
        try connection.execute("CREATE TABLE t (id int8 PRIMARY KEY)")
        let pid = connection.backendPID
        try PostgreSQLFixtures.terminate(backend: pid, socket: PostgreSQLFixtures.socket(of: connection), admin: admin)
        #expect {
            try connection.transaction { try connection.cachedQuery("INSERT INTO t VALUES ($1)", [.int8(1)]) }
        } throws: { error in
            guard let error = error as? PostgreSQLError else { return false }
            return error.isNodeLost && !error.outcomeUnknown
        }
        #expect(try admin.query("SELECT count(*) FROM t")[0].int64(0) == 0)
    }

    /// A prepared statement the server lost (`DISCARD ALL` from a pooler) fails once, also as a
    /// transaction's first statement, which goes out in a pipeline behind the BEGIN: it is
    /// forgotten, and prepared again by the next call.
    @Test func aStatementTheServerLostIsPreparedAgain() throws {
        let connection = try PostgreSQLFixtures.connection()
        let sql = "SELECT $1::int8 + 1"
        #expect(try connection.cachedQuery(sql, [.int8(1)])[0].int64(0) == 2)
        try connection.execute("DEALLOCATE ALL")
        #expect {
            try connection.transaction { try connection.cachedQuery(sql, [.int8(2)]) }
        } throws: { ($0 as? PostgreSQLError)?.code == .invalidSQLStatementName }
        #expect(try connection.transaction { try connection.cachedQuery(sql, [.int8(3)])[0].int64(0) } == 4)
    }
}
