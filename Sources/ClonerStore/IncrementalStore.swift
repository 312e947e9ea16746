import ClonerModel
import CSQLite
import Foundation

/// The SQLite-backed object store: opens (or creates) the file, checks it belongs to Cloner,
/// migrates it to the model, then serves reads in parallel and writes one at a time.
///
/// Threading: this type is `Sendable`; the `StoreContext` a `read` or `write` body receives is not,
/// and must not leave the body. Readers each get their own connection (WAL lets them run beside
/// the writer); writers are serialised in-process by `writerGate` before they ask SQLite for the
/// write lock, so they queue fairly instead of spinning in SQLite's busy handler.
public final class IncrementalStore: Sendable {
    public let path: String
    public let model: DataModel
    public let schema: StoreSchema
    /// The store's own identity, made when the file was created.
    public let storeUUID: String
    private let readers: ConnectionPool
    private let writers: ConnectionPool
    private let writerGate = DispatchSemaphore(value: 1)
    /// How long a write waits for the writer before giving up with `StoreError.busy`, so a caller
    /// queued behind a long clone gets an answer instead of waiting without bound.
    public let writerWait: Duration

    /// Metadata format marker: a file whose metadata lacks it was not made by Cloner.
    static let formatName = "cloner-store"
    static let formatVersion = "1"

    public init(path: String, model: DataModel, writerWait: Duration = .seconds(30)) throws {
        self.path = path
        self.writerWait = writerWait
        self.model = model
        self.schema = StoreSchema(model: model)
        if path != ":memory:" {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let connection: SQLiteConnection
        do {
            connection = try IncrementalStore.openConnection(path: path, readOnly: false)
        } catch let error as SQLiteError {
            throw StoreError.incompatibleStore(path: path, reason: "not a SQLite database or unreadable (\(error.description))")
        }
        self.storeUUID = try IncrementalStore.prepare(connection: connection, path: path, model: model, schema: schema)
        let readerPath = path
        self.readers = ConnectionPool(maximumIdle: 8) { try IncrementalStore.openConnection(path: readerPath, readOnly: true) }
        self.writers = ConnectionPool(maximumIdle: 2) { try IncrementalStore.openConnection(path: readerPath, readOnly: false) }
    }

    static func openConnection(path: String, readOnly: Bool) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path, options: .init(readOnly: readOnly, create: !readOnly))
        try connection.execute("PRAGMA foreign_keys = ON")
        if !readOnly {
            // NORMAL is durable across application crashes in WAL mode; only an OS crash can lose
            // the last commits, never corrupt the file.
            try connection.execute("PRAGMA synchronous = NORMAL")
        }
        // Temporary tables (clone maps, delete sets) spill to disk rather than grow the heap.
        try connection.execute("PRAGMA temp_store = FILE")
        return connection
    }

    /// Runs `body` with a read-only connection inside one read transaction, so everything it reads
    /// comes from one consistent snapshot.
    public func read<T>(_ body: (StoreContext) throws -> T) throws -> T {
        try readers.withConnection { connection in
            try connection.transaction(.deferred) {
                try body(StoreContext(connection: connection, schema: schema))
            }
        }
    }

    /// Runs `body` in one write transaction: everything it does is committed together, or nothing
    /// is if it throws.
    public func write<T>(_ body: (StoreContext) throws -> T) throws -> T {
        let (seconds, attoseconds) = writerWait.components
        let wait = DispatchTime.now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        guard writerGate.wait(timeout: wait) == .success else { throw StoreError.busy(waited: writerWait) }
        defer { writerGate.signal() }
        return try writers.withConnection { connection in
            do {
                return try connection.transaction(.immediate) {
                    try body(StoreContext(connection: connection, schema: schema))
                }
            } catch let error as SQLiteError {
                throw StoreContext.translate(error, schema: schema)
            }
        }
    }

    /// Closes idle connections (the store stays usable; new ones open on demand).
    public func closeIdleConnections() {
        readers.drain()
        writers.drain()
    }

    /// Whether the file and its folder (where SQLite puts the WAL) can be written, for readiness
    /// probes. Deliberately does not take the write lock: a probe must answer while a long clone
    /// holds it.
    public func isWritable() -> Bool {
        guard path != ":memory:" else { return true }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return access(path, W_OK) == 0 && access(directory, W_OK) == 0
    }
}
