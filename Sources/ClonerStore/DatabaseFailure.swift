/// A database error the store could not translate into model terms (a full disk, a corrupt page, a
/// bug in generated SQL), kept with everything a log line needs — which backend, its own code
/// (SQLite's extended result code, PostgreSQL's SQLSTATE), its message and the failing SQL —
/// without exposing the backend's own error type.
public struct DatabaseFailure: Sendable, Hashable, CustomStringConvertible {
    /// `SQLite` or `PostgreSQL`.
    public let backend: String
    /// The backend's code as text: SQLite's extended result code (`2067`), PostgreSQL's SQLSTATE
    /// (`23505`).
    public let code: String
    public let message: String
    public let sql: String?
    /// Whether the database refused for lack of a lock (SQLITE_BUSY/LOCKED, PostgreSQL's lock
    /// timeouts): worth a retry, so the service answers 503.
    public let isBusy: Bool

    public init(backend: String, code: String, message: String, sql: String? = nil, isBusy: Bool = false) {
        self.backend = backend
        self.code = code
        self.message = message
        self.sql = sql
        self.isBusy = isBusy
    }

    public var description: String {
        "\(backend) error \(code): \(message)" + (sql.map { " — in: \($0)" } ?? "")
    }
}
