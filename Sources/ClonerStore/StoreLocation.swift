import Foundation

/// Where the store lives: a SQLite file path, or a libpq connection URI (`postgres://` or
/// `postgresql://`, as libpq accepts them).
public enum StoreLocation: Sendable, Hashable, CustomStringConvertible {
    case sqlite(path: String)
    case postgreSQL(uri: String)

    /// A `postgres://` or `postgresql://` prefix (any case, as libpq's URI scheme) names a
    /// PostgreSQL server; anything else is a SQLite path.
    public init(_ text: String) {
        self = PostgreSQLURI.isPostgreSQL(text) ? .postgreSQL(uri: text) : .sqlite(path: text)
    }

    /// For logs and errors: a URI's password (in the user info or a `password=` parameter) is
    /// replaced by `***`, so a location can always be printed.
    public var description: String {
        switch self {
        case .sqlite(let path): return path
        case .postgreSQL(let uri): return PostgreSQLURI.redacted(uri)
        }
    }
}
