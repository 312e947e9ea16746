import ClonerModel
import Foundation

/// The object store: opens (or creates) the database at a `StoreLocation`, checks it belongs to
/// Cloner, migrates it to the model, then serves read and write transactions through the
/// backend-neutral `StoreContext`.
///
/// Threading: this type is `Sendable`; the `StoreContext` a `read` or `write` body receives is not,
/// and must not leave the body. Which backend runs underneath is private: no public API names a
/// SQLite (or PostgreSQL) type.
public final class IncrementalStore: Sendable {
    public let location: StoreLocation
    public let model: DataModel
    public let schema: StoreSchema
    /// The store's own identity, made when it was created.
    public var storeUUID: String { backend.storeUUID }
    /// What opening did to the database (created, unchanged, migrated), for the start-up log.
    public var preparation: StorePreparation { backend.preparation }
    /// How long a write waits for the writer before giving up with `StoreError.busy`, so a caller
    /// queued behind a long clone gets an answer instead of waiting without bound.
    public let writerWait: Duration
    private let backend: any StoreBackend
    /// Transactions run so far (tests only).
    package let transactions = TransactionCounter()

    /// Metadata format marker: a store whose metadata lacks it was not made by Cloner.
    static let formatName = "cloner-store"
    /// 2: binary values stored once per content in the blob table (docs/architecture.md#shared-blobs).
    static let formatVersion = "2"
    /// Stores of this version are migrated to blob references when opened.
    static let formatVersionBeforeBlobs = "1"

    /// The default bound of a PostgreSQL store's connection pool.
    public static let defaultMaximumConnections = 10

    /// Opens (or creates) the store at `location` and migrates it to `model`.
    /// - Parameters:
    ///   - writerWait: SQLite: how long a write waits for the single writer before
    ///     `StoreError.busy`. PostgreSQL: how long a transaction waits for a pooled connection.
    ///   - maximumConnections: PostgreSQL: how many connections this process holds at most — its
    ///     share of the server's `max_connections`, which every replica shares. SQLite opens
    ///     connections as readers need them and ignores it.
    ///   - requireSynchronousStandby: PostgreSQL: a write commits only where a synchronous
    ///     standby will have it too, else it is refused as `StoreError.unavailable` (a failover
    ///     then never loses an acknowledged write, at the price of refusing writes while the
    ///     primary has no synchronous standby). SQLite ignores it.
    ///   - log: progress of a long migration on open (moving binary values into the blob table),
    ///     a line at a time.
    ///   - connectionEvents: PostgreSQL: the database lost and back, as it happens (see
    ///     `StoreConnectionEvent`); SQLite has none.
    public init(
        location: StoreLocation, model: DataModel, writerWait: Duration = .seconds(30),
        maximumConnections: Int = IncrementalStore.defaultMaximumConnections,
        requireSynchronousStandby: Bool = false,
        log: @escaping @Sendable (String) -> Void = { _ in },
        connectionEvents: @escaping @Sendable (StoreConnectionEvent) -> Void = { _ in }
    ) throws {
        precondition(maximumConnections > 0, "a store needs at least one connection")
        self.location = location
        self.model = model
        self.schema = StoreSchema(model: model)
        self.writerWait = writerWait
        switch location {
        case .sqlite(let path):
            self.backend = try SQLiteStore(path: path, schema: schema, writerWait: writerWait, log: log)
        case .postgreSQL(let uri):
            self.backend = try PostgreSQLStore(
                uri: uri, schema: schema, maximumConnections: maximumConnections,
                checkoutTimeout: writerWait, requiresSynchronousStandby: requireSynchronousStandby, log: log, events: connectionEvents)
        }
    }

    /// A SQLite store at `path` (`:memory:` for a private in-memory database).
    public convenience init(path: String, model: DataModel, writerWait: Duration = .seconds(30)) throws {
        try self.init(location: .sqlite(path: path), model: model, writerWait: writerWait)
    }

    /// Runs `body` inside one read transaction, so everything it reads comes from one consistent
    /// snapshot.
    public func read<T>(_ body: (any StoreContext) throws -> T) throws -> T {
        transactions.countRead()
        return try backend.read(body)
    }

    /// Runs `body` in one write transaction: everything it does is committed together, or nothing
    /// is if it throws.
    public func write<T>(_ body: (any StoreContext) throws -> T) throws -> T {
        transactions.countWrite()
        return try backend.write(body)
    }

    /// Closes idle connections (the store stays usable; new ones open on demand).
    public func closeIdleConnections() {
        backend.closeIdleConnections()
    }

    /// Whether the store can take writes, for readiness probes; never waits for the writer, so a
    /// probe answers while a long clone holds it.
    public func isWritable() -> Bool {
        writability() == .writable
    }

    /// As `isWritable`, with the reason when not: the file's permissions, the node a standby, or
    /// no database node answering.
    public func writability() -> StoreWritability {
        backend.writability()
    }

    /// The pool's sessions, waiting transactions and reconnections (nil on SQLite), for `/metrics`.
    public var connectionStatistics: StoreConnectionStatistics? { backend.connectionStatistics }

    /// Whether a second write may run beside a first one (false on SQLite: one writer; true on
    /// PostgreSQL).
    public var allowsConcurrentWrites: Bool { backend.allowsConcurrentWrites }
}
