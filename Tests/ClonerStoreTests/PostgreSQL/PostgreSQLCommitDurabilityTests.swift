@testable import ClonerStore
import ClonerTestSupport
import Testing

/// A session that made the clone's work tables commits only locally outside transactions (so
/// that dropping them as it ends never waits for a standby), yet every write transaction on it
/// commits at the level the server is configured for — here set on the database, so that the
/// test tells "the server's own level" from a level written into the code.
@Suite(.requiresPostgreSQL) struct PostgreSQLCommitDurabilityTests {
    @Test func writeTransactionsCommitAtTheServersLevelAfterTheWorkTablesLowerTheSessions() throws {
        let database = try PostgreSQLFixtures.database()
        let admin = try PostgreSQLFixtures.connect(database)
        try admin.execute("ALTER DATABASE \"\(database.name)\" SET synchronous_commit = remote_apply")
        let connection = try PostgreSQLFixtures.connect(database)
        let level = { try connection.query("SELECT current_setting('synchronous_commit')").onlyText() }

        #expect(try level() == "remote_apply", "a new session starts at the database's level")
        try connection.execute(PostgreSQLCloneSession.workTablesDDL(for: StoreSchema(model: StoreFixtures.notesModel())))
        #expect(try level() == "local", "outside transactions the session commits locally")
        #expect(try connection.transaction(.readCommitted) { try level() } == "remote_apply", "a write commits at the server's level")
        #expect(try connection.transaction(.repeatableRead) { try level() } == "remote_apply")
        #expect(try connection.transaction(.repeatableRead, readOnly: true) { try level() } == "local", "a read writes nothing to wait for")
        #expect(try level() == "local", "the write's level ends with it")
    }

    /// A level chosen in the connection URI's `options` is the session's default too.
    @Test func aLevelFromTheURIOptionsIsTheOneWritesCommitAt() throws {
        let database = try PostgreSQLFixtures.database()
        let separator = database.uri.contains("?") ? "&" : "?"
        let connection = try PostgreSQLConnection(uri: database.uri + separator + "options=-c%20synchronous_commit%3Dremote_write")
        let level = { try connection.query("SELECT current_setting('synchronous_commit')").onlyText() }
        try connection.execute(PostgreSQLCloneSession.workTablesDDL(for: StoreSchema(model: StoreFixtures.notesModel())))
        #expect(try level() == "local")
        #expect(try connection.transaction(.readCommitted) { try level() } == "remote_write")
    }
}

extension PostgreSQLResult {
    /// The first column of the only row, as text.
    fileprivate func onlyText() -> String? {
        var value: String?
        forEachRow { value = $0.optionalString(0) }
        return value
    }
}
