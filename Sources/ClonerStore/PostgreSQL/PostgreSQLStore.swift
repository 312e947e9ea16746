import ClonerModel
import Foundation

/// The PostgreSQL-backed object store (docs/architecture.md#postgresql): one database shared by every replica,
/// reached through a bounded connection pool.
///
/// Opening prepares the database once however many replicas start together: creation or
/// migration runs in one transaction under a transaction-level advisory lock, so the first
/// replica does the work and the others, waiting on the lock, find it done.
///
/// Transactions: a read is one REPEATABLE READ READ ONLY transaction (one snapshot for everything
/// the body reads). A write is one READ COMMITTED transaction — no process-wide writer lock, and
/// no failure because another transaction changed a row since a snapshot: writers that meet on a
/// row wait for each other's row locks. Each write locks what it reads before it decides on it
/// (a save locks the objects it updates, deletes or links before it checks their versions; a
/// clone locks its source and the objects it links — `PostgreSQLGraphCopier`), in one order:
/// entity by entity, ids ascending. A deadlock that still happens (two writers reaching the same
/// rows by different paths), or a serialization failure, runs the whole body again with a short
/// randomised pause, until the writer wait has passed; then `StoreError.busy` (the service's 503).
///
/// Threading: `Sendable`; the context a body receives is not, and must not leave the body. Calls
/// block the calling thread (libpq is synchronous): call from the store's queues or threads.
final class PostgreSQLStore: StoreBackend {
    let layout: PostgreSQLSchema
    let pool: PostgreSQLConnectionPool
    /// The store's own identity, made when the database was first prepared.
    let storeUUID: String
    /// Whether opening created or migrated the schema, for the start's log.
    let preparation: StorePreparation
    /// How long a write keeps running its body again after deadlocks or serialization failures
    /// before it answers `StoreError.busy`: the writer wait, as for a pooled connection.
    let retryDeadline: Duration
    /// Every write commits only where a synchronous standby will have it
    /// (`PostgreSQLConnection.synchronousStandbyGuard`); the schema's preparation on open does not
    /// ask, so a service starts on a primary that has none yet.
    let requiresSynchronousStandby: Bool

    /// The advisory-lock name under which replicas prepare the schema one at a time.
    static let preparationLockName = "cloner.store.prepare"

    /// Opens the database at `uri` (libpq's format), then creates or migrates the schema.
    /// `maximumConnections` bounds this process's share of the server's `max_connections`;
    /// `checkoutTimeout` is how long a transaction waits for a pooled connection before
    /// `StoreError.busy`.
    init(
        uri: String, schema: StoreSchema, maximumConnections: Int = 10, checkoutTimeout: Duration = .seconds(5),
        requiresSynchronousStandby: Bool = false,
        log: (String) -> Void = { _ in }, events: @escaping @Sendable (StoreConnectionEvent) -> Void = { _ in }
    ) throws {
        var layout = PostgreSQLSchema(schema: schema)
        self.requiresSynchronousStandby = requiresSynchronousStandby
        self.retryDeadline = checkoutTimeout
        let maximumAttempts = 5
        let pool = PostgreSQLConnectionPool(
            configuration: .init(
                uri: uri, maximumConnections: maximumConnections, checkoutTimeout: checkoutTimeout),
            events: events)
        self.pool = pool
        let problems = layout.identifierProblems()
        guard problems.isEmpty else {
            throw StoreError.incompatibleStore(path: pool.redactedURI, reason: problems.joined(separator: "; "))
        }
        do {
            // A migration's DDL locks tables that live replicas are writing: a deadlock with one
            // of them rolls the whole preparation back, so it runs again, as a write would.
            var attempt = 0
            while true {
                attempt += 1
                do {
                    (storeUUID, preparation) = try pool.withConnection { [layout] connection in
                        try PostgreSQLStore.prepare(connection: connection, layout: layout, log: log)
                    }
                    break
                } catch let error as PostgreSQLError where error.isRetryableTransactionFailure && attempt < maximumAttempts {
                    Thread.sleep(forTimeInterval: Double.random(in: 0.01...0.05))
                }
            }
            try pool.withConnection { try layout.readIDSequences(on: $0, place: pool.redactedURI) }
            self.layout = layout
        } catch let error as PostgreSQLError where error.kind == .connection || error.kind == .poolExhausted {
            pool.close()
            throw StoreError.incompatibleStore(path: pool.redactedURI, reason: "cannot connect: \(error.message)")
        } catch let error as PostgreSQLError {
            pool.close()
            throw error.storeError(layout: layout)
        } catch {
            pool.close()
            throw error
        }
    }

    deinit { pool.close() }

    /// Whether a second write may run beside a first one: yes, on PostgreSQL.
    var allowsConcurrentWrites: Bool { true }

    /// Runs `body` in one REPEATABLE READ READ ONLY transaction. A connection lost while reading
    /// is re-opened and the read runs once more: it wrote nothing, so running it again is safe.
    func read<T>(_ body: (any StoreContext) throws -> T) throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try pool.withConnection { connection in
                    try connection.transaction(.repeatableRead, readOnly: true) {
                        try body(PostgreSQLStoreContext(connection: connection, layout: layout))
                    }
                }
            } catch let error as PostgreSQLError {
                if error.isNodeLost && attempt < 2 { continue }
                throw error.storeError(layout: layout)
            }
        }
    }

    /// Runs `body` in one READ COMMITTED write transaction: committed together if it returns,
    /// rolled back if it throws. On a serialization failure or deadlock the whole body runs again
    /// (after a short randomised pause that grows with the attempts, so colliding writers do not
    /// collide again in step) until `retryDeadline` has passed; `body` must therefore only act
    /// through the context.
    func write<T>(_ body: (any StoreContext) throws -> T) throws -> T {
        let started = ContinuousClock.now
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try pool.withConnection { connection in
                    // The clone's session makes its work tables outside the transaction, hears
                    // which run this is, and adds its statements to the COMMIT.
                    let clones = connection.cloneSession
                    try clones.prepare(connection, schema: layout.schema)
                    clones.began(attempt: attempt)
                    let result = try connection.transaction(.readCommitted, onSynchronousStandby: requiresSynchronousStandby, participant: clones) {
                        try body(PostgreSQLStoreContext(connection: connection, layout: layout))
                    }
                    pool.noteWriteCommitted(on: connection)
                    return result
                }
            } catch let error as PostgreSQLError where error.isNodeLost && !error.outcomeUnknown && attempt == 1 {
                // Nothing was written, and the pool has dropped the sessions to the lost node: a
                // primary already promoted (a switchover) takes the write at once.
                continue
            } catch StoreError.unavailable(_, outcomeUnknown: false) where attempt == 1 {
                continue
            } catch let error as PostgreSQLError where error.isRetryableTransactionFailure {
                let waited = ContinuousClock.now - started
                guard waited < retryDeadline else { throw StoreError.busy(waited: waited) }
                let base = 0.002 * Double(1 << min(attempt, 6))
                Thread.sleep(forTimeInterval: Double.random(in: base / 2...base))
            } catch let error as PostgreSQLError {
                throw error.storeError(layout: layout)
            }
        }
    }

    /// Closes idle connections; new ones open on demand.
    func closeIdleConnections() {
        pool.closeIdle()
    }

    /// Whether the database takes writes now: one round trip on a pooled connection; not on a
    /// read-only standby, or when no session can be had (the reason says which).
    func writability() -> StoreWritability {
        do {
            return try pool.withConnection { connection in
                // The level a write commits at is the session's default (`SET LOCAL … TO DEFAULT`),
                // whatever the session set for itself outside transactions: `reset_val`.
                let row = try connection.query(
                    """
                    SELECT pg_is_in_recovery(), current_setting('transaction_read_only') = 'on', \
                    current_setting('synchronous_standby_names') = '' \
                    OR (SELECT reset_val FROM pg_settings WHERE name = 'synchronous_commit') IN ('off', 'local')
                    """)[0]
                if row.bool(0) { return .notWritable(reason: "the database node reached (\(connection.node)) is a standby in recovery") }
                if row.bool(1) { return .notWritable(reason: "the database session is read-only (default_transaction_read_only)") }
                if requiresSynchronousStandby && row.bool(2) {
                    return .notWritable(
                        reason:
                            "no synchronous standby would have a write (synchronous_standby_names is empty, or synchronous_commit is off or local), and requireSynchronousStandby refuses writes until one does"
                    )
                }
                return .writable
            }
        } catch let error as PostgreSQLError {
            return .notWritable(reason: "the database cannot be reached: \(error.message)")
        } catch {
            return .notWritable(reason: "the database cannot be reached: \(error)")
        }
    }

    var connectionStatistics: StoreConnectionStatistics? { pool.statistics }
}
