import ClonerModel
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// SQLite result codes by name (`SQLiteResultCode`), matchable in `catch` as GRDB's are, and what the
/// store makes of them in its public errors.
@Suite struct SQLiteResultCodeTests {
    /// A raw connection with a unique column and a foreign key, for provoking each violation.
    static func connection(_ directory: TemporaryDirectory) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: directory.path("raw.sqlite"))
        try connection.execute("PRAGMA foreign_keys = ON")
        try connection.execute(
            """
            CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT UNIQUE);
            CREATE TABLE child (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES parent (id));
            INSERT INTO parent (id, name) VALUES (1, 'a');
            """)
        return connection
    }

    @Test func theNamedCodesAreSQLitesOwn() {
        #expect(SQLiteResultCode.constraintUnique.rawValue == 2067)
        #expect(SQLiteResultCode.constraintPrimaryKey.rawValue == 1555)
        #expect(SQLiteResultCode.constraintForeignKey.rawValue == 787)
        #expect(SQLiteResultCode.constraintNotNull.rawValue == 1299)
        #expect(SQLiteResultCode.busy.rawValue == 5)
        #expect(SQLiteResultCode.constraintUnique.primaryResultCode == .constraint)
        #expect(SQLiteResultCode.constraint.isPrimary && !SQLiteResultCode.constraintUnique.isPrimary)
    }

    /// Which `catch` clause a failing statement lands in.
    static func clause(_ connection: SQLiteConnection, _ sql: String) -> String {
        do {
            try connection.execute(sql)
            return "none"
        } catch SQLiteResultCode.constraintUnique {
            return "unique"
        } catch SQLiteResultCode.constraintPrimaryKey {
            return "primary key"
        } catch SQLiteResultCode.busy {
            return "busy"
        } catch SQLiteResultCode.constraint {
            return "constraint family"
        } catch {
            return "other"
        }
    }

    @Test func anExtendedCodeIsCaughtByItselfAndByItsFamily() throws {
        let directory = try TemporaryDirectory()
        let connection = try Self.connection(directory)
        #expect(Self.clause(connection, "INSERT INTO parent (id, name) VALUES (2, 'a')") == "unique")
        #expect(Self.clause(connection, "INSERT INTO parent (id, name) VALUES (1, 'b')") == "primary key")
        #expect(Self.clause(connection, "INSERT INTO child (id, parent) VALUES (1, 99)") == "constraint family")
        #expect(Self.clause(connection, "SELECT * FROM nowhere") == "other")
        #expect(Self.clause(connection, "INSERT INTO parent (id, name) VALUES (3, 'c')") == "none")
    }

    @Test func theErrorSaysItsCodeByNumberAndName() throws {
        let directory = try TemporaryDirectory()
        let connection = try Self.connection(directory)
        var caught: SQLiteError?
        do {
            try connection.execute("INSERT INTO child (id, parent) VALUES (1, 99)")
        } catch {
            caught = error
        }
        let error = try #require(caught)
        #expect(error.resultCode == .constraintForeignKey)
        #expect(error.isForeignKeyViolation && !error.isUniqueViolation && error.isConstraintViolation)
        #expect(error.description.contains("787"))
        #expect(error.failure.code == "787" && error.failure.backend == "SQLite")
    }

    /// A database error with no model meaning leaves the store as `StoreError.database`, never as
    /// the SQLite type.
    @Test func aBackendErrorLeavesTheStoreWrapped() throws {
        let directory = try TemporaryDirectory()
        let store = try IncrementalStore(path: directory.path("store.sqlite"), model: StoreFixtures.notesModel())
        do {
            try store.write { context in try context.sqliteConnection.execute("SELECT * FROM no_such_table") }
            Issue.record("expected an error")
        } catch StoreError.database(let failure) {
            #expect(failure.backend == "SQLite")
            #expect(failure.code == String(SQLiteResultCode.error.rawValue))
            #expect(failure.message.contains("no_such_table"))
            #expect(failure.sql == "SELECT * FROM no_such_table")
            #expect(!failure.isBusy)
        }
    }
}
