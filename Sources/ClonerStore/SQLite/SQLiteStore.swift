import ClonerModel
import CSQLite
import Foundation

/// The SQLite backend: one file in WAL mode. Readers each get their own connection (WAL lets them
/// run beside the writer); writers are serialised in-process by `writerGate` before they ask
/// SQLite for the write lock, so they queue fairly instead of spinning in SQLite's busy handler.
final class SQLiteStore: StoreBackend {
    let path: String
    let schema: StoreSchema
    let storeUUID: String
    let preparation: StorePreparation
    let writerWait: Duration
    /// The read routes' SQL, built once for the schema.
    private let readStatements: SQLReadStatements
    private let readers: SQLiteConnectionPool
    private let writers: SQLiteConnectionPool
    private let writerGate = DispatchSemaphore(value: 1)

    var allowsConcurrentWrites: Bool { false }

    init(path: String, schema: StoreSchema, writerWait: Duration, log: (String) -> Void = { _ in }) throws {
        self.path = path
        self.schema = schema
        self.writerWait = writerWait
        self.readStatements = SQLReadStatements(schema: schema, dialect: SQLiteDialect.self)
        if path != ":memory:" {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let connection: SQLiteConnection
        do {
            connection = try SQLiteStore.openConnection(path: path, readOnly: false, entities: schema.model.entities.count)
        } catch let error as SQLiteError {
            throw StoreError.incompatibleStore(
                path: path,
                reason: (path == ":memory:" ? nil : SQLiteFileAccess.problem(databasePath: path))
                    ?? "not a SQLite database or unreadable (\(error.description))")
        }
        do {
            (self.storeUUID, self.preparation) = try SQLiteStore.prepare(connection: connection, path: path, schema: schema, log: log)
        } catch let error as SQLiteError {
            throw StoreError.database(error.failure)
        }
        let readerPath = path
        let entities = schema.model.entities.count
        self.readers = SQLiteConnectionPool(path: path, maximumIdle: 8) {
            try SQLiteStore.openConnection(path: readerPath, readOnly: true, entities: entities)
        }
        self.writers = SQLiteConnectionPool(path: path, maximumIdle: 2) {
            try SQLiteStore.openConnection(path: readerPath, readOnly: false, entities: entities)
        }
    }

    /// A connection to the file; a writer's with the work tables of a copy of a model of
    /// `entities` entities.
    static func openConnection(path: String, readOnly: Bool, entities: Int) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path, options: .init(readOnly: readOnly, create: !readOnly))
        try connection.execute("PRAGMA foreign_keys = ON")
        if !readOnly {
            // NORMAL is durable across application crashes in WAL mode; only an OS crash can lose
            // the last commits, never corrupt the file.
            try connection.execute("PRAGMA synchronous = NORMAL")
            // A checkpoint runs inside the commit that passes the threshold, on the writer's turn,
            // and ends with an fsync; a small write touches the same few pages (the tables' and
            // indexes' last leaves) again and again. Ten times SQLite's default: a tenth of the
            // checkpoints and their fsyncs, each hot page copied once per checkpoint, for a WAL
            // file of about 40 MB between checkpoints.
            try connection.execute("PRAGMA wal_autocheckpoint = 10000")
        }
        // Temporary tables (clone maps, delete sets) spill to disk rather than grow the heap. Not
        // MEMORY, though that would make a small clone cheaper (no temp file opened per
        // materialized subquery): an INSERT … SELECT that reads its own table materializes its
        // rows first, so a large clone's rows, however many, would sit in the heap.
        try connection.execute("PRAGMA temp_store = FILE")
        if !readOnly { try connection.cloneSession.prepareWorkTables(on: connection, entities: entities) }
        return connection
    }

    func read<T>(_ body: (any StoreContext) throws -> T) throws -> T {
        try transaction(.deferred, on: readers, body)
    }

    func write<T>(_ body: (any StoreContext) throws -> T) throws -> T {
        let (seconds, attoseconds) = writerWait.components
        let wait = DispatchTime.now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        guard writerGate.wait(timeout: wait) == .success else { throw StoreError.busy(waited: writerWait) }
        defer { writerGate.signal() }
        return try transaction(.immediate, on: writers, body)
    }

    /// One transaction on a pooled connection; SQLite's errors leave it as `StoreError`.
    private func transaction<T>(
        _ kind: SQLiteConnection.TransactionKind, on pool: SQLiteConnectionPool,
        _ body: (any StoreContext) throws -> T
    ) throws -> T {
        do {
            return try pool.withConnection { connection in
                try connection.transaction(kind) {
                    try body(SQLiteStoreContext(connection: connection, schema: schema, readStatements: readStatements))
                }
            }
        } catch let error as SQLiteError {
            throw SQLiteStoreContext.translate(error, schema: schema)
        }
    }

    func closeIdleConnections() {
        readers.closeIdle()
        writers.closeIdle()
    }

    /// Whether the file and its folder (where SQLite puts the WAL) can be written. Deliberately does
    /// not take the write lock.
    func writability() -> StoreWritability {
        guard path != ":memory:" else { return .writable }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if access(path, W_OK) != 0 { return .notWritable(reason: "the database file \(path) cannot be written by this process") }
        if access(directory, W_OK) != 0 { return .notWritable(reason: "the folder \(directory) (where SQLite keeps its journal) cannot be written") }
        return .writable
    }

    /// One file, no pool to watch.
    var connectionStatistics: StoreConnectionStatistics? { nil }
}
