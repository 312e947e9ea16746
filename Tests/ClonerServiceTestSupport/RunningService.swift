import ClonerTestSupport
import Foundation

/// A Cloner service a test talks to — started in the test process (`TestService`) or as the
/// `cloner` executable (the end-to-end tests' `ServiceProcess`) — and the database behind it,
/// which a test may read directly to check what the service wrote.
package protocol RunningService: Sendable {
    var port: Int { get }
    var backend: StoreBackendKind { get }
    /// What the service was given as its database: the SQLite path, or the test database's URI.
    var databaseLocation: String { get }
}

extension RunningService {
    /// A client of this service (one connection per request).
    package var client: ServiceClient { ServiceClient(port: port) }

    /// Runs SQL against the service's database, not through the service: with the sqlite3 shell,
    /// or psql on PostgreSQL (unaligned, tuples only: `a|b` rows as sqlite3 prints them).
    package func sql(_ statements: String) async throws -> String {
        let backend = backend, location = databaseLocation
        return try await Blocking.run { try DatabaseShell.run(statements, backend: backend, location: location) }
    }

    /// Rows of `entity` in the database, counted with the sqlite3 shell or psql (not through the
    /// service). `condition` must be SQL both dialects read.
    package func count(_ entity: String, where condition: String = "true") async throws -> Int {
        let text = try await sql("SELECT count(*) FROM \"\(entity)\" WHERE \(condition);")
        guard let count = Int(text) else { throw ClientError("count of \(entity): \(text)") }
        return count
    }

    /// `count` of each entity, in order.
    package func counts(_ entities: [String]) async throws -> [Int] {
        var counts: [Int] = []
        for entity in entities { counts.append(try await count(entity)) }
        return counts
    }
}

/// The databases' own command-line shells, so tests check what was stored without the service's
/// code in between.
package enum DatabaseShell {
    package static func run(_ statements: String, backend: StoreBackendKind, location: String) throws -> String {
        let outcome: ShortCommand.Outcome
        switch backend {
        case .sqlite:
            outcome = try ShortCommand.run("/usr/bin/sqlite3", ["-batch", "-cmd", ".timeout 30000", location, statements])
        case .postgreSQL:
            outcome = try ShortCommand.run("/usr/bin/env", ["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", location, "-c", statements])
        }
        guard outcome.status == 0 else {
            throw ClientError(
                "\(backend == .sqlite ? "sqlite3" : "psql") failed (\(outcome.status)): \(String(decoding: outcome.errors, as: UTF8.self))")
        }
        return String(decoding: outcome.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
