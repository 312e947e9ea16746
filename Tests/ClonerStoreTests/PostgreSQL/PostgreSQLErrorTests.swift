@testable import ClonerStore
import Foundation
import Testing

/// Errors are recognised by SQLSTATE, carry what locates them, and never carry a password.
@Suite(.requiresPostgreSQL)
struct PostgreSQLErrorTests {
    @Test func uniqueViolationCarriesCodeConstraintAndTable() throws {
        let connection = try PostgreSQLFixtures.connection()
        try connection.execute("CREATE TABLE notes (id int8 PRIMARY KEY, title text CONSTRAINT notes_title_key UNIQUE)")
        let insert = "INSERT INTO notes (id, title) VALUES ($1, $2)"
        try connection.cachedQuery(insert, [.int8(1), .text("Groceries")])
        #expect {
            try connection.cachedQuery(insert, [.int8(2), .text("Groceries")])
        } throws: { error in
            guard let error = error as? PostgreSQLError else { return false }
            return error.code == .uniqueViolation && error.isUniqueViolation && error.kind == .server
                && error.constraint == "notes_title_key" && error.table == "notes" && error.sql == insert
                && String(describing: error).contains("notes_title_key")
        }
        // The session survives a server error.
        #expect(try connection.query("SELECT count(*) FROM notes")[0].int64(0) == 1)
    }

    @Test func foreignKeyViolationCarriesItsConstraint() throws {
        let connection = try PostgreSQLFixtures.connection()
        try connection.execute(
            """
            CREATE TABLE parents (id int8 PRIMARY KEY);
            CREATE TABLE children (id int8 PRIMARY KEY, parent int8 CONSTRAINT children_parent_fkey REFERENCES parents (id));
            """)
        #expect {
            try connection.query("INSERT INTO children (id, parent) VALUES (1, $1)", [.int8(99)])
        } throws: { error in
            let error = error as? PostgreSQLError
            return error?.code == .foreignKeyViolation && error?.constraint == "children_parent_fkey"
        }
    }

    @Test func serializationFailureBetweenTwoRepeatableReadTransactions() throws {
        let database = try PostgreSQLFixtures.database()
        let first = try PostgreSQLFixtures.connect(database)
        let second = try PostgreSQLFixtures.connect(database)
        try first.execute("CREATE TABLE counters (id int8 PRIMARY KEY, value int8 NOT NULL); INSERT INTO counters VALUES (1, 0)")
        var caught: PostgreSQLError?
        do {
            try first.transaction(.repeatableRead) {
                // The first statement takes the snapshot.
                #expect(try first.query("SELECT value FROM counters WHERE id = 1")[0].int64(0) == 0)
                try second.transaction(.repeatableRead) {
                    try second.query("UPDATE counters SET value = value + 1 WHERE id = 1")
                }
                try first.query("UPDATE counters SET value = value + 10 WHERE id = 1")
            }
        } catch let error as PostgreSQLError {
            caught = error
        }
        #expect(caught?.code == .serializationFailure)
        #expect(caught?.isRetryableTransactionFailure == true)
        #expect(first.isInTransaction == false)
        #expect(try first.query("SELECT value FROM counters WHERE id = 1")[0].int64(0) == 1)
    }

    /// PostgreSQL answers COMMIT of an aborted transaction with ROLLBACK and no error: a body that
    /// caught a statement's error must not be reported as committed.
    @Test func caughtStatementErrorFailsTheTransaction() throws {
        let connection = try PostgreSQLFixtures.connection()
        try connection.execute("CREATE TABLE t (id int8 PRIMARY KEY)")
        #expect {
            try connection.transaction {
                try connection.query("INSERT INTO t VALUES (1)")
                _ = try? connection.query("INSERT INTO t VALUES (1)")
            }
        } throws: { error in
            (error as? PostgreSQLError)?.code == .inFailedSQLTransaction
        }
        #expect(try connection.query("SELECT count(*) FROM t")[0].int64(0) == 0)
        #expect(try connection.transaction(.serializable, readOnly: true) { try connection.query("SELECT 1::int8")[0].int64(0) } == 1)
    }

    @Test func passwordNeverAppearsInConnectionErrors() throws {
        let database = try PostgreSQLFixtures.database()
        let secret = "Sup3r-Secret-pw"
        let uris = [
            database.uri(password: secret, database: "no_such_database"),
            "postgresql://postgres@/no_such_database?host=\(database.socketDirectory)&port=\(database.port)&password=\(secret)",
            // libpq echoes a malformed percent-encoded token in its message.
            "postgresql://postgres:%zz\(secret)@/\(database.name)?host=\(database.socketDirectory)",
            "host=\(database.socketDirectory) dbname=no_such_database password='\(secret)'",
        ]
        for uri in uris {
            var caught: PostgreSQLError?
            do { _ = try PostgreSQLConnection(uri: uri) } catch { caught = error }
            let error = try #require(caught, "\(PostgreSQLURI.redacted(uri)) should not open")
            #expect(error.kind == .connection)
            #expect(error.code == .unableToEstablishConnection)
            #expect(!String(describing: error).contains(secret), "\(error)")
            #expect(!String(reflecting: error).contains(secret))
            #expect(String(describing: error).contains("***"), "\(error)")
        }
    }

    @Test func passwordNeverAppearsInStatementErrors() throws {
        let database = try PostgreSQLFixtures.database()
        let secret = "An0ther-Secret"
        let connection = try PostgreSQLConnection(uri: database.uri(password: secret))
        #expect(connection.redactedURI.contains("postgres:***@"))
        var caught: PostgreSQLError?
        do { try connection.query("SELECT * FROM missing_table") } catch { caught = error }
        let error = try #require(caught)
        #expect(error.code == .undefinedTable)
        #expect(!String(describing: error).contains(secret))
        #expect(error.connection == connection.redactedURI)
    }
}
