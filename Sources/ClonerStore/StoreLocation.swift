import Foundation

/// Where the store lives: a SQLite file path, or a libpq connection URI (`postgres://` or
/// `postgresql://`, as libpq accepts them).
public enum StoreLocation: Sendable, Hashable, CustomStringConvertible {
    case sqlite(path: String)
    case postgreSQL(uri: String)

    /// A `postgres://` or `postgresql://` prefix (any case, as libpq's URI scheme) names a
    /// PostgreSQL server; anything else is a SQLite path.
    public init(_ text: String) {
        let lowered = text.lowercased()
        if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") {
            self = .postgreSQL(uri: text)
        } else {
            self = .sqlite(path: text)
        }
    }

    /// For logs and errors: a URI's password is replaced by `***`, so a location can be printed.
    public var description: String {
        switch self {
        case .sqlite(let path):
            return path
        case .postgreSQL(let uri):
            // postgres://user:password@host/db — the password sits between the first ':' after the
            // scheme and the '@' ending the userinfo (RFC 3986 §3.2.1).
            guard let scheme = uri.range(of: "://") else { return uri }
            let rest = uri[scheme.upperBound...]
            let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
            guard let at = rest[..<authorityEnd].lastIndex(of: "@"),
                  let colon = rest[..<at].firstIndex(of: ":") else { return uri }
            return String(uri[..<rest.index(after: colon)]) + "***" + String(uri[at...])
        }
    }
}
