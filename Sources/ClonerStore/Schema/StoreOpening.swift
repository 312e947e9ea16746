import ClonerModel

/// What opening a store asks of its backend: the primitives under the one opening sequence
/// (`StoreOpening+Preparation.swift` — read the metadata, refuse another application's database,
/// create or migrate the schema, write the metadata). A backend that leaves one out does not
/// compile.
///
/// The two databases decide differently in one place, how the preparation is kept to one process
/// at a time: PostgreSQL runs all of it in one transaction under an advisory lock, since its DDL
/// is transactional and a replica that waited must find the finished result; SQLite has one
/// writer per file, so each step that must be whole is one transaction holding the file's write
/// lock, and a blob migration there commits batch by batch rather than as one transaction.
protocol StoreOpening {
    associatedtype Connection: SQLConnection

    /// How the refusal of another application's database names it: "file", "database".
    static var databaseKind: String { get }
    /// Runs the whole preparation on `connection`, one process at a time.
    static func exclusively<T>(on connection: Connection, _ body: () throws -> T) throws -> T
    /// Runs `body` as one whole: committed together or not at all.
    static func atomically<T>(on connection: Connection, _ body: () throws -> T) throws -> T
    /// The tables (and views) in the database that are not the database's own: empty for a new
    /// store, the metadata table among them for a Cloner store.
    static func applicationTableNames(on connection: Connection) throws -> Set<String>
    /// Runs one DDL statement, outside the statement caches (it runs once).
    static func execute(_ statement: String, on connection: Connection) throws
    /// Whether `error` is the database refusing a unique index because rows share values.
    static func isDuplicateFailure(_ error: any Error) -> Bool
    /// Stores the blobs of the model's binary defaults, before a migration writes their keys.
    static func storeDefaultBlobs(_ schema: StoreSchema, on connection: Connection) throws
    /// Whether `table` has a column named `column`: a blob migration interrupted on SQLite left
    /// its column set aside (`migrateToBlobs`).
    static func hasColumn(_ column: String, inTable table: String, on connection: Connection) throws -> Bool
    /// The blob migration's one step the two databases take differently: the next batch of
    /// `entity`'s rows after `_id` `last` whose old `aside` column holds bytes, stored as blobs
    /// and their keys written to `column`; nil when no such row is left. (PostgreSQL hashes and
    /// chunks a range of rows inside the server, in three set-based statements; SQLite stores
    /// each value through its blob writer and clears `aside`, so a resumed migration skips it.)
    static func moveBinaryValues(
        of entity: String, column: String, aside: String, after last: Int64, on connection: Connection
    ) throws -> (moved: Int, last: Int64)?
    /// The names of the indexes in the database (the service tables' are checked by name).
    static func indexNames(on connection: Connection) throws -> Set<String>
}
