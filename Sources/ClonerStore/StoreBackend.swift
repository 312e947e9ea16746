/// What `IncrementalStore` asks of a backend (SQLite today; PostgreSQL beside it): transactions
/// handing out that backend's `StoreContext`, connection housekeeping and health. Internal: the
/// public API is `IncrementalStore`'s, which names no backend type.
protocol StoreBackend: Sendable {
    /// The store's own identity, made when it was created.
    var storeUUID: String { get }
    /// What opening did to the database: created, unchanged, or migrated.
    var preparation: StorePreparation { get }
    /// Whether a second write transaction may run beside a first one.
    var allowsConcurrentWrites: Bool { get }
    /// One read transaction: everything `body` reads comes from one consistent snapshot.
    func read<T>(_ body: (any StoreContext) throws -> T) throws -> T
    /// One write transaction: committed if `body` returns, rolled back if it throws. Backend
    /// errors leave it as `StoreError`.
    func write<T>(_ body: (any StoreContext) throws -> T) throws -> T
    func closeIdleConnections()
    /// Whether writes can be taken now, and why not; never waits for the writer.
    func writability() -> StoreWritability
    /// The pool's sessions and reconnections, where the backend pools them.
    var connectionStatistics: StoreConnectionStatistics? { get }
}
