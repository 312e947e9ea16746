import ClonerModel

/// What the store SQL written once (`SQLStoreContext`) leaves to each backend: how parameters are
/// written, how a list of ids bound as one parameter is matched and read as rows with their
/// places, and how an insert skips rows that are there already. The rest of the text (tables,
/// columns, joins, subqueries) is the same on both. Parameters are numbered from 1 and may be
/// named more than once.
protocol SQLDialect {
    /// Parameter `n` where its type follows from the column it is compared with or written to.
    static func parameter(_ n: Int) -> String
    /// Parameter `n` as an integer where nothing around it gives its type (a select list, a
    /// value that may be NULL).
    static func integer(_ n: Int) -> String
    /// `IN` the id list bound as parameter `n`, as a condition's right-hand side, for a key the
    /// list is looked up in (`"_id" \(among(1))`, by the primary key).
    static func among(_ n: Int) -> String
    /// `IN` the id list bound as parameter `n`, for rows tested against a list that may be long
    /// (a scan, a join column): the form the backend hashes.
    static func inList(_ n: Int) -> String
    /// `NOT IN` the id list bound as parameter `n`, hashed the same way.
    static func notInList(_ n: Int) -> String
    /// The id list bound as parameter `n` as a `FROM` item named `a`, one row per listed id with
    /// `listedID` and its 0-based place `listedPlace`.
    static func listed(_ n: Int) -> String
    static var listedID: String { get }
    static var listedPlace: String { get }
    /// For a row of `listed`, the element at the same place of the id list bound as parameter
    /// `n`: the place in a declared list a part of it gives each of its rows
    /// (`ChangeSet.ListPlaces`).
    static func listedPlace(in n: Int) -> String
    /// The bytes of a text value (`expression`), NULL for NULL.
    static func octetLength(_ expression: String) -> String
    /// `INSERT INTO table (columns) select` that skips the rows a unique key already holds.
    static func insertSkippingDuplicates(into table: String, columns: [String], select: String) -> String
    /// A recursive query of `(ent, id)` rows: the row of parameters 1 and 2, then every row an
    /// edge reaches from a row found (`c`), `UNION` dropping repeats so that cycles end. Each
    /// edge reads `SELECT entity, id FROM table AS t WHERE condition`, its condition naming `c`.
    static func closure(edges: [SQLClosureEdge]) -> String

    // MARK: blobs and service tables

    /// The clause after a `SELECT` that holds the rows it reads with `lock`; empty where one
    /// writer runs at a time, so no one else changes them before the transaction ends.
    static func rowLock(_ lock: SQLRowLock) -> String
    /// `IN` the blob keys bound as parameter `n` (`SQLArgument.blobKeys`), as a condition's
    /// right-hand side.
    static func amongBlobKeys(_ n: Int) -> String
    /// The bytes of `expression` from the 1-based place bound as parameter `start`, as many as
    /// parameter `length`: a part of a chunk read without reading the whole.
    static func bytesSlice(_ expression: String, start: Int, length: Int) -> String

    // MARK: schema

    /// The DDL written once (`SQLDialect+Schema.swift`: entity tables, reference and position
    /// columns, indexes, join tables, the migration's steps) leaves to each backend its types and
    /// literals, how a table numbers its rows, whether references are declared with their columns,
    /// and how a name the store makes up is kept within the backend's identifier limit. Each
    /// backend's text is the one its stores were created with, to the byte; `SchemaDDLTextTests`
    /// holds it.
    ///
    /// Requiredness is the save path's job, not NOT NULL's, on both: a model that makes an
    /// attribute optional must migrate in place (SQLite cannot relax a NOT NULL without rebuilding
    /// the table).

    /// The type of ids, versions, references and positions.
    static var integerType: String { get }
    static func columnType(_ type: AttributeType) -> String
    /// `value` as a constant for a DEFAULT clause (and a migration's UPDATE), as the backend reads
    /// it back for rows that existed before the column was added.
    static func literal(_ value: AttributeValue) -> String
    /// The `_id` column: numbered by the table, a number never reused.
    static var idColumn: String { get }
    /// What the `_id` space the tables of an inheritance hierarchy share needs
    /// (docs/architecture.md#relationships-into-a-hierarchy), run as the store opens, after it is
    /// made or migrated: nothing where new ids follow the highest of the tables; where writers run
    /// side by side, a sequence of its own, made when missing and moved past the tables' rows when
    /// they are ahead of it (a store made before, a hierarchy a migration formed), never back.
    static func idSpaceStatements(hierarchy: String, tables: [String]) -> [String]
    /// Whether reference columns (to rows and to blobs) declare their REFERENCES clause, and a
    /// binary column's index is made with its table. Otherwise both are added as constraints once
    /// every table exists (`referenceStatements`): a table may name one created after it.
    static var declaresReferences: Bool { get }
    /// A name the store makes up for an index or a constraint, as the backend keeps it.
    static func identifier(_ name: String) -> String
    /// What comes between an index's table and its column list.
    static var indexColumnsLead: String { get }
    /// Whether a reference column's index, and a binary column's, holds only the rows with a
    /// value (a partial index): where a write's cost is the pages it touches (SQLite), a row
    /// without a reference then touches none of that index; where it is the executor's work
    /// per statement (PostgreSQL), checking each index's condition costs more than it saves.
    static var indexesOnlyRowsWithAValue: Bool { get }
    /// What follows the column list of a table read by its primary key (a join table, the
    /// lineage): stored in the key's order where the backend can.
    static var keyedTableOptions: String { get }
    /// Text compared as the database compares it by default: the service tables' columns that
    /// are never a key.
    static var textType: String { get }
    /// The blob rows and their chunks (docs/architecture.md#shared-blobs), made before any table
    /// that references them.
    static var blobTableStatements: [String] { get }
    /// The store's own key-value table (`StoreMetadata`).
    static var metadataTableStatement: String { get }

    // MARK: migrations

    /// Drops the tables a migration removes (`SchemaMigrator`), join tables first. The removed
    /// tables may refer to one another, even in a cycle: SQLite keeps a reference to a missing
    /// table in its schema, so it drops them one by one; PostgreSQL does not let a constraint
    /// outlive the table it names, so it drops them all in one statement.
    static func dropTableStatements(_ tables: [String]) -> [String]
    /// Keeps a hierarchy's one `_id` space past the ids table `dropped` issued, before it is
    /// dropped, by carrying them to `sibling`, a table of the same hierarchy that stays: SQLite
    /// counts the space from its tables' own sequences, which go with them; PostgreSQL's space is
    /// a sequence of the hierarchy's own, which outlives its tables, so it needs nothing.
    static func carryIssuedIDs(from dropped: String, to sibling: String) -> [String]
    /// Gives index `name` (as kept, `identifier`) the name `newName` after a rename
    /// (`SchemaRenames`). PostgreSQL renames it; SQLite cannot, so it drops it and runs
    /// `statement`, the index made again under its new name.
    static func renameIndex(_ name: String, to newName: String, creating statement: String) -> [String]

    // MARK: rows, transfer and import

    /// `column` as an ORDER BY key ascending with NULL first, as SQLite sorts it, so an ordered
    /// list whose places are missing reads the same on both backends.
    static func ascendingNullsFirst(_ column: String) -> String
    /// `column` as an ORDER BY key descending with NULL last, as SQLite sorts it.
    static func descendingNullsLast(_ column: String) -> String
    /// Whether `left` equals `right`, NULL equal to NULL.
    static func isNotDistinct(_ left: String, _ right: String) -> String
    /// A multi-row INSERT of `rowCount` rows into `table` (`columns` quoted, their values of
    /// `types`, an `_id`, reference or place as `.integer`), skipping with `skippingDuplicates`
    /// a row whose key is there already. Its parameters are the batch's values as
    /// `SQLStoreContext.insertArguments` lays them out.
    static func insertRows(
        into table: String, columns: [String], types: [AttributeType], rowCount: Int, skippingDuplicates: Bool
    ) -> String
    /// The most rows one such INSERT takes for `columns` columns (SQLite's parameter limit;
    /// PostgreSQL binds one array per column whatever the rows).
    static func rowsPerInsert(columns: Int) -> Int
    /// The bytes of values one INSERT carries at most (one row more when a row alone is larger),
    /// so a batch of large values never builds one oversized statement.
    static var bytesPerInsert: Int { get }
    /// Rows bound as parameters, as a `FROM` item named `alias` with `columns` of `types`:
    /// `rowCount` rows whose parameters are laid out as `insertRows`' are.
    static func parameterRows(_ alias: String, columns: [String], types: [AttributeType], rowCount: Int) -> String
    /// The lock a row found to be linked takes until the transaction ends (after `ORDER BY`),
    /// on `alias`; empty where one writer at a time already excludes the others.
    static func lockForLink(_ alias: String) -> String
    /// A statement taking a lock named `name` until the transaction ends, so that writers that
    /// read before they decide a value take turns; nil where one writer at a time already does.
    static func transactionLock(named name: String) -> String?

    // MARK: graph copy

    /// The copy's SQL written once (`GraphCopySQLBuilder`) leaves to each backend these spellings;
    /// its walk, map and execution are the backends' strategies, not spellings.

    /// The boolean constants, as a condition and as a value.
    static var trueLiteral: String { get }
    static var falseLiteral: String { get }
    /// A NULL id, typed where the backend cannot tell a bare NULL's type from around it.
    static var nullReference: String { get }
    /// A new random (version 4) UUID, evaluated per row inside the database.
    static var newUUID: String { get }
    /// Whether the branches of a CASE must share one type (a copied row cannot read a parent's
    /// value of another type into one).
    static var caseBranchesShareOneType: Bool { get }
    /// `expression` as a value of `type`, where the backend types its values: a CASE whose every
    /// branch is NULL still has the column's type.
    static func typed(_ expression: String, _ type: AttributeType) -> String
    /// A work table of a connection's own (`name` unquoted), seen by no other connection.
    static func workTable(_ name: String) -> String
    /// `INSERT INTO table (key…, column)` the rows of `select` (the same columns, a key perhaps
    /// repeated), a key already there keeping the greater `column` of its rows.
    static func insertKeepingGreatest(_ column: String, key: [String], into table: String, select: String) -> String
}
