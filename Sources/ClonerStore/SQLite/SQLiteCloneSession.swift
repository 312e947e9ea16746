/// The clone's side of one SQLite connection: what its clones keep between transactions — the
/// SQL built per plan shape (its statements live in the connection's statement cache) and the
/// work tables, made once and emptied after each copy. The connection holds it, knowing nothing
/// of what it is for.
///
/// A connection is used by one thread at a time, and so is this: it needs no lock.
final class SQLiteCloneSession {
    /// The clone SQL built for each plan shape on this connection (`GraphCopyShape`).
    var graphCopySQL: [GraphCopyShape: SQLiteGraphCopySQL] = [:]
    /// Whether the work tables exist and are empty: set where a writer connection opens, outside
    /// any transaction (a rollback cannot drop them), cleared if emptying them failed.
    var workTablesReady = false

    /// The work tables, created once per connection and emptied (never dropped) after each copy:
    /// creating or dropping a table changes the schema, which would re-prepare every cached
    /// statement of the connection. Each statement is prepared once and cached; a `CREATE … IF
    /// NOT EXISTS` whose table exists runs as a no-op, and one rolled back with the transaction
    /// that created it is re-prepared by SQLite and creates the table again.
    private static let temporaryTables = [
        // The maps live in the temp database; a page cache of up to 16 MiB for it (SQLite's
        // default is 2 MiB) keeps a map of ~150,000 rows — 100 copies of a mid-sized note — from
        // spilling to the temp file and being read back to be cleared. Memory stays bounded.
        "PRAGMA temp.cache_size = -16384",
        "CREATE TEMP TABLE IF NOT EXISTS \"_clone_walk\" (seq INTEGER PRIMARY KEY, ent INTEGER NOT NULL, id INTEGER NOT NULL, via INTEGER NOT NULL, pent INTEGER, pid INTEGER)",
        // Covers the map fill's read (first arrival per object) and a level's look for an earlier
        // arrival at the same object: no lookup into the walk's rows.
        "CREATE INDEX IF NOT EXISTS temp.\"_clone_walk_first\" ON \"_clone_walk\" (ent, id, seq, via, pent, pid)",
        "CREATE TEMP TABLE IF NOT EXISTS \"_clone_copies\" (cp INTEGER PRIMARY KEY)",
        "CREATE TEMP TABLE IF NOT EXISTS \"_clone_set\" (cp INTEGER NOT NULL, name TEXT NOT NULL, value, PRIMARY KEY (cp, name)) WITHOUT ROWID",
        "CREATE TEMP TABLE IF NOT EXISTS \"_clone_chain\" (new INTEGER PRIMARY KEY, value)",
        "CREATE TEMP TABLE IF NOT EXISTS \"_clone_tree\" (pnew INTEGER NOT NULL, new INTEGER NOT NULL, PRIMARY KEY (pnew, new)) WITHOUT ROWID",
        "CREATE TEMP TABLE IF NOT EXISTS \"_clone_linked\" (ent INTEGER NOT NULL, id INTEGER NOT NULL, bump INTEGER NOT NULL, PRIMARY KEY (ent, id)) WITHOUT ROWID",
    ]

    /// The work tables of entity `tag`, a pair per entity of the model. Its map rows
    /// (`SQLiteGraphCopySQL.mapTable(of:)`), keyed (cp, old): new ids grow along the key, so the
    /// map is filled by appending and an INSERT that reads it in key order writes rows in new-id
    /// order without a sort. Its first arrivals (`SQLiteGraphCopySQL.firstArrivalTable(of:)`),
    /// keyed by id: a way keeps only objects no earlier way has, and the map fill reads them in
    /// id order.
    private static func entityTables(_ tag: Int) -> [String] {
        [
            """
            CREATE TEMP TABLE IF NOT EXISTS "_clone_map_\(tag)" (cp INTEGER NOT NULL, old INTEGER NOT NULL, new INTEGER NOT NULL, \
            pent INTEGER, pold INTEGER, pnew INTEGER, PRIMARY KEY (cp, old)) WITHOUT ROWID
            """,
            "CREATE TEMP TABLE IF NOT EXISTS \"_clone_first_\(tag)\" (id INTEGER PRIMARY KEY, way INTEGER NOT NULL, pent INTEGER, pid INTEGER)",
        ]
    }

    /// Creates the work tables where a writer connection opens, outside any transaction, so a
    /// copy runs none of these statements: two per entity of the model (a connection serves one
    /// store, so one model), and those every copy shares.
    func prepareWorkTables(on connection: SQLiteConnection, entities: Int) throws {
        precondition(!connection.isInTransaction, "work tables created inside a transaction vanish with its rollback")
        try Self.createWorkTables(on: connection, entities: entities)
        workTablesReady = true
    }

    /// Makes the work tables inside a copy's transaction where the connection was not prepared
    /// (or emptying them failed): there they last as long as the transaction.
    func readyWorkTables(on connection: SQLiteConnection, entities: Int) throws {
        if !workTablesReady { try Self.createWorkTables(on: connection, entities: entities) }
    }

    /// Creates the work tables if missing and empties them; inside a copy's transaction when the
    /// connection was not prepared (or emptying failed), where they last as long as it.
    private static func createWorkTables(on connection: SQLiteConnection, entities: Int) throws {
        for statement in temporaryTables + (0..<entities).flatMap(entityTables) { try connection.execute(statement) }
        let every = [
            SQLiteGraphCopySQL.linkedTable, SQLiteGraphCopySQL.walkTable, SQLiteGraphCopySQL.copiesTable, SQLiteGraphCopySQL.rootValuesTable,
            SQLiteGraphCopySQL.chainTable, SQLiteGraphCopySQL.treeTable,
        ]
        let perEntity = (0..<entities).flatMap { [SQLiteGraphCopySQL.mapTable(of: $0), SQLiteGraphCopySQL.firstArrivalTable(of: $0)] }
        for table in every + perEntity { try connection.execute("DELETE FROM \(table)") }
    }

}
