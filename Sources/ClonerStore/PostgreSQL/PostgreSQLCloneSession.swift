/// The clone's side of one PostgreSQL connection: what its clones keep between transactions (the
/// SQL built per plan shape, the walks of small sources, the work tables and
/// what they hold), where the session is in the open write transaction (`Phases`), and what a
/// clone leaves to run with the COMMIT. The connection holds it and runs its statements as a
/// `PostgreSQLCommitParticipant`, knowing nothing of what they are for; the store tells it which
/// run of a write this is, and it alone decides how a clone guards its source on that run.
///
/// A connection is used by one thread at a time, and so is this: it needs no lock.
final class PostgreSQLCloneSession {
    /// The clone SQL built for each plan shape on this connection (`GraphCopyShape`): building it
    /// walks the whole model and writes a few dozen statements, over a quarter of the service's CPU
    /// for a small clone; the prepared statements are then found by their text.
    var graphCopySQL: [GraphCopyShape: PostgreSQLGraphCopySQL] = [:]
    /// The walks of small clones' sources on this connection, for its next clone of the same
    /// source (`PostgreSQLSourceWalks`). Kept across a re-opened server session: they hold data,
    /// not server state, and every use is checked against the source's versions.
    var sourceWalks = PostgreSQLSourceWalks()
    /// What the server session holds for the clones, valid while it is the one `server` names.
    private var server = ServerState(session: 0)
    private var phases = Phases()

    /// What lives in the server session and goes with it when the connection re-opens.
    private struct ServerState {
        /// `PostgreSQLConnection.serverSession` of the session this describes.
        let session: Int
        /// Whether the work tables were made for good (outside a transaction) on it.
        var hasWorkTables = false
        /// The remembered walk (and its links) the work tables hold as of the last commit, if they
        /// hold one (`PostgreSQLGraphCopier`), with the token written beside them: the next clone
        /// of that source leaves the rows where they are once the token in the session says they
        /// are still the rows this connection wrote (through a transaction-pooling proxy the next
        /// transaction may run on another server session). Set when a transaction that wrote the
        /// tables commits; a rollback leaves them, and so this, as they were.
        var walkTableHolds: PostgreSQLSourceWalks.Held?
        /// Rows the clones have left in each work table (by name) since it was last truncated
        /// (the graph copier's `truncateRows`).
        var workRowsSinceTruncate: [String: Int] = [:]
    }

    /// The server state of `connection`'s present server session, forgotten if it re-opened.
    private func sync(with connection: PostgreSQLConnection) {
        if server.session != connection.serverSession { server = ServerState(session: connection.serverSession) }
    }

    /// Makes the work tables where a write first meets a server session, outside its transaction
    /// (a rolled-back transaction would take tables it created with it).
    func prepare(_ connection: PostgreSQLConnection, schema: StoreSchema) throws {
        sync(with: connection)
        guard !server.hasWorkTables else { return }
        try connection.execute(Self.workTablesDDL(for: schema))
        server.hasWorkTables = true
    }

    /// Whether the clone must make the work tables itself: the connection re-opened inside this
    /// very transaction (the store made them on the session it had before). Made inside the
    /// transaction, they last as long as it does, and the next write makes them for good.
    func lacksWorkTables(on connection: PostgreSQLConnection) -> Bool {
        sync(with: connection)
        return !server.hasWorkTables
    }

    /// A write transaction begins: run `attempt` (from 1) of the store's write.
    func began(attempt: Int) {
        _ = phases.event(.began(attempt: attempt))
    }

    /// A clone copied (or failed to) and leaves `work` to the COMMIT.
    func copied(_ work: CommitWork) {
        _ = phases.event(.copied(work))
    }

    /// How a clone of `smallClone` guards its source on this run.
    func sourceGuard(smallClone: Bool) -> SourceGuard {
        SourceGuard(smallClone: smallClone, attempt: phases.attempt)
    }

    /// Whether a remembered walk may stand for a new one: on a write's first run only (a run
    /// after a failed check walks again).
    var mayUseRememberedWalks: Bool { phases.attempt == 1 }

    /// The walk the work tables hold as of the last commit on this server session.
    func walkTableHolds(on connection: PostgreSQLConnection) -> PostgreSQLSourceWalks.Held? {
        sync(with: connection)
        return server.walkTableHolds
    }

    /// The work tables hold nothing known any longer.
    func forgetWalkTable() {
        server.walkTableHolds = nil
    }

    /// Adds the rows a clone left in each work table; answers the tables past `limit`, counted
    /// as truncated from now on.
    func leftRows(_ rows: [String: Int], truncatingFrom limit: Int) -> [String] {
        server.workRowsSinceTruncate.merge(rows, uniquingKeysWith: +)
        let due = server.workRowsSinceTruncate.filter { $0.value >= limit }.keys.sorted()
        for table in due { server.workRowsSinceTruncate[table] = 0 }
        return due
    }

    /// A truncation after the COMMIT failed: its tables count as due for the next clone's.
    func truncationFailed(_ tables: [String], limit: Int) {
        for table in tables { server.workRowsSinceTruncate[table] = limit }
    }
}

extension PostgreSQLCloneSession: PostgreSQLCommitParticipant {
    var statementsBeforeCommit: [PostgreSQLConnection.PipelinedStatement] { phases.work?.beforeCommit ?? [] }

    var statementsAfterCommit: [PostgreSQLConnection.AfterCommitStatement] { phases.work?.afterCommit ?? [] }

    func transactionEnded(committed: Bool) {
        switch phases.event(.ended(committed: committed)) {
        case .none: break
        case .holdWalkTable(let held): server.walkTableHolds = held
        }
    }

    /// The linked objects are not locked (`PostgreSQLGraphCopySQL.linkedLockSQL`): one deleted
    /// by a transaction that committed first fails its deferred foreign key at this COMMIT — a
    /// conflict like a serialization failure, reported as one so that the write runs again and
    /// sees the deletion.
    func commitFailure(_ error: PostgreSQLError) -> PostgreSQLError {
        guard phases.work?.referencesUnlockedRows == true, error.isForeignKeyViolation else { return error }
        return PostgreSQLError(
            kind: .server, code: .serializationFailure,
            message: "an object the transaction links was deleted before it committed (\(error.message)); it runs again",
            detail: error.detail, constraint: error.constraint, table: error.table, sql: error.sql, connection: error.connection)
    }
}

extension PostgreSQLCloneSession {
    /// The session's scratch tables. Run where a write first meets a connection, outside a
    /// transaction (a rolled-back transaction would take tables it created with it); `IF NOT
    /// EXISTS` makes a second run harmless. Their rows outlive the transaction that wrote them
    /// until the next clone empties them (`PostgreSQLGraphCopier`).
    ///
    /// The map's index by parent serves only the push of a self-following attribute down a chain
    /// of clones (`PostgreSQLGraphCopySQL.followPropagation`), so it is made only for a model with
    /// such an attribute: every map fill would keep it up, for every row, with no reader.
    ///
    /// The session commits only locally outside transactions: its work tables are dropped as it
    /// ends, and on a primary being shut down for a switchover that drop would otherwise wait for
    /// a synchronous standby that has just been promoted, holding the shutdown up for good. Temporary
    /// tables hold nothing a standby needs; every write transaction sets the server's own level
    /// back for its COMMIT (`PostgreSQLConnection.transaction`).
    static func workTablesDDL(for schema: StoreSchema) -> String {
        let chains = schema.model.entities.contains { entity in entity.attributes.contains { $0.cloneRule.followParent == $0.name } }
        return """
            SET synchronous_commit = local;
            CREATE TEMP TABLE IF NOT EXISTS "_clone_walk" (seq int8 NOT NULL, cp int4 NOT NULL, ent int4 NOT NULL, \
            id int8 NOT NULL, via int4 NOT NULL, pent int4, pid int8, ver int8);
            CREATE TEMP TABLE IF NOT EXISTS "_clone_map" (cp int4 NOT NULL, ent int4 NOT NULL, old int8 NOT NULL, new int8 NOT NULL, \
            pent int4, pold int8, pnew int8, ver int8, PRIMARY KEY (ent, old, cp));
            CREATE TEMP TABLE IF NOT EXISTS "_clone_linked" (ent int4 NOT NULL, id int8 NOT NULL, bump int4 NOT NULL, \
            PRIMARY KEY (ent, id));
            CREATE TEMP TABLE IF NOT EXISTS "_clone_walk_token" (token int8 NOT NULL);
            """ + (chains ? "\nCREATE INDEX IF NOT EXISTS \"_clone_map_parent\" ON pg_temp.\"_clone_map\" (ent, pnew);" : "")
    }
}
