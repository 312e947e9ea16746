import ClonerModel
import Foundation

/// A store context whose operations are SQL on one connection: the statements both backends run
/// alike (relationship edits, deletes, saves, fetches and pages, row batches, a whole-store move)
/// are written once in extensions of this protocol, over the connection's `SQLConnection` calls
/// and its `SQLDialect`, so a rule changes in one place. What truly differs (value types, blobs,
/// new ids, row locks, the graph copy's machinery) stays in each backend's own context, as the
/// requirements below.
protocol SQLStoreContext: StoreContext, ChangeSetWriter {
    associatedtype Connection: SQLConnection
    var connection: Connection { get }
    /// `value` of `attribute` as its column stores it: a binary value by its blob's key (the
    /// blob stored first); a value the backend cannot hold refused naming the attribute.
    func storedValue(_ value: AttributeValue, entity: String, attribute: String) throws -> Connection.Value

    // MARK: rows, transfer and import
    // The hooks of the row writes and reads written once (`SQLStoreContext+Rows`, `+Save`): where
    // the two databases decide differently, not only spell differently.

    /// `count` new `_id`s of `entity`, ascending, after `last` (the highest this transaction took
    /// before, nil for its first): ids no other writer is given. (A sequence on PostgreSQL,
    /// whose writers run side by side; the table's highest on SQLite, whose writer is alone.)
    func newIDs(entity: String, after last: Int64?, count: Int) throws -> [Int64]
    /// The highest `_id` the entity's table ever issued: its sequence's position or its largest
    /// row, whichever is higher (rows deleted at the end leave the sequence ahead).
    func highestIssuedID(entity: String) throws -> Int64
    /// Moves the entity's sequence so the next `_id` it issues is above `id`.
    func issueIDs(above id: Int64, entity: String) throws
    /// Holds the objects a change set names (updates, deletes, link targets) until the
    /// transaction ends, before `save` reads them; nothing where one writer at a time excludes
    /// the others.
    func lockRows(of changes: ChangeSet) throws
    /// `value` bound as it is (a binary value as its bytes, not stored as a blob); a value the
    /// backend cannot hold refused naming `entity` (or a row) and `attribute`.
    static func boundValue(_ value: AttributeValue, entity: String, attribute: String) throws -> Connection.Value
    /// Rows of values as their columns store them (`storedValue`), a column whose type is nil
    /// (an `_id`, a reference, a place) as an integer or NULL: where the backend can, the batch's
    /// binary values are stored as blobs together, not one statement each.
    func storedRows(_ rows: [[AttributeValue]], columns: [(name: String, type: AttributeType?)], entity: String) throws -> [[Connection.Value]]
    /// The parameters of one `Dialect.insertRows` statement for `rows` (each one value per
    /// column, of `types`): the values one by one, or one array per column.
    static func insertArguments(_ rows: ArraySlice<[Connection.Value]>, types: [AttributeType]) -> [Connection.Value]
    /// About the bytes `value` takes in a statement, for `Dialect.bytesPerInsert`.
    static func approximateBytes(_ value: Connection.Value) -> Int
    /// Runs a query with the backend's own values and hands each row to `body` (valid only inside
    /// the call).
    func forEachRow(_ sql: String, values: [Connection.Value], _ body: (Connection.Row) throws -> Void) throws
    /// Runs a page query of `shape` (`SQLStoreContext+Pages`), its text `sql()`, built only when
    /// the backend has no statement of that shape yet.
    func forEachPageRow(shape: FetchPageShape, sql: () throws -> String, values: [Connection.Value], _ body: (Connection.Row) throws -> Void) throws
    /// A filter's value bound as its column stores it (a binary value as its blob's key, given
    /// so); nil when nothing the backend stores can equal it.
    static func filterValue(_ value: AttributeValue, entity: String, attribute: String) throws -> Connection.Value?
    /// A cursor's value bound for `column`. A cursor is the client's to send back, so a value of
    /// the wrong kind is refused naming the key, not a crash.
    static func cursorValue(_ value: FetchRequest.Position.Value, column: FetchKeyColumn, entity: String) throws -> Connection.Value
    /// Column `column` of `row`, a key of `kind`, as a position carries it (the SQLite store's
    /// storage classes).
    static func positionValue(_ row: Connection.Row, _ column: Int, _ kind: FetchKeyColumn.Kind) -> FetchRequest.Position.Value
    /// The read statements of the schema, built once in the backend's dialect.
    var readStatements: SQLReadStatements { get }
    /// Runs one of them (by its slot where the backend keeps one).
    func forEachRow(_ query: SQLRecordReads.Query, arguments: [SQLArgument], _ body: (Connection.Row) throws -> Void) throws
    /// Runs several of them, in order, each row to `body` with its query's index. None depends on
    /// another's rows, so a backend may send them together: by default one after the other;
    /// PostgreSQL in one pipeline, one round trip for all.
    func forEachRow(of queries: [(SQLRecordReads.Query, [SQLArgument])], _ body: (Int, Connection.Row) throws -> Void) throws
    /// The bytes of the text in column `column` of `row`, measured where the row holds it,
    /// without copying it (0 for NULL).
    static func textByteCount(_ row: Connection.Row, _ column: Int) -> Int
}

extension SQLStoreContext {
    typealias Dialect = Connection.Dialect

    func forEachRow(of queries: [(SQLRecordReads.Query, [SQLArgument])], _ body: (Int, Connection.Row) throws -> Void) throws {
        try forEachRowInTurn(of: queries, body)
    }

    /// `forEachRow(of:)` one query after the other: the default, and a backend's way for a
    /// batch it will not send together.
    func forEachRowInTurn(of queries: [(SQLRecordReads.Query, [SQLArgument])], _ body: (Int, Connection.Row) throws -> Void) throws {
        for (index, (query, arguments)) in queries.enumerated() {
            try forEachRow(query, arguments: arguments) { try body(index, $0) }
        }
    }

    /// Which of `ids` exist in `entity`'s table: one query, however many ids.
    func existingIDs(entity: String, ids: [Int64]) throws -> Set<Int64> {
        var found: Set<Int64> = []
        try connection.forEachRow("SELECT \"_id\" FROM \(quoted(entity)) WHERE \"_id\" \(Dialect.among(1))", arguments: [.ids(ids)]) {
            found.insert($0.int64(0))
        }
        return found
    }

    /// The blob keys the binary `columns` of objects `ids` of `entity` hold: one query per column.
    func blobKeys(entity: String, columns: [String], ids: [Int64]) throws -> Set<Data> {
        // One object (an update) is matched by its key alone, with no list to read.
        let (match, argument): (String, SQLArgument) =
            ids.count == 1 ? ("= \(Dialect.parameter(1))", .integer(ids[0])) : (Dialect.among(1), .ids(ids))
        var keys: Set<Data> = []
        for column in columns {
            try connection.forEachRow(Self.blobKeysSQL(entity: entity, column: column, match: match), arguments: [argument]) { keys.insert($0.data(0)) }
        }
        return keys
    }

    /// The distinct blob keys `column` of `entity` holds in the rows whose `_id` is `match`
    /// (`= $1`, or an id list's condition): an update's and a delete's.
    static func blobKeysSQL(entity: String, column: String, match: String) -> String {
        "SELECT DISTINCT \(quoted(column)) FROM \(quoted(entity)) WHERE \"_id\" \(match) AND \(quoted(column)) IS NOT NULL"
    }
}

extension SQLStoreContext {
    /// The statements reading records of `entity`.
    func recordReads(_ entity: String) -> SQLRecordReads { readStatements.reads(entity).records }
}
