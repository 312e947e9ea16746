import CLibPQ
@testable import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// Each PostgreSQL test gets its own database in the process's shared throwaway cluster.
enum PostgreSQLFixtures {
    static func database() throws -> PostgreSQLTestDatabase {
        try PostgreSQLTestCluster.shared.createDatabase()
    }

    static func connect(_ database: PostgreSQLTestDatabase) throws -> PostgreSQLConnection {
        try PostgreSQLConnection(uri: database.uri)
    }

    /// A connection to a fresh database.
    static func connection() throws -> PostgreSQLConnection {
        try connect(database())
    }

    /// The socket of `connection`'s session (it stays the connection's; only watched, never read).
    static func socket(of connection: PostgreSQLConnection) -> Int32 {
        PQsocket(connection.handle)
    }

    /// Ends backend `pid` from `admin` (`pg_terminate_backend`) and waits until it is gone
    /// (`waitUntilGone`): a session lost as a server restart or a network loss loses it.
    static func terminate(backend pid: Int32, socket: Int32, admin: PostgreSQLConnection) throws {
        #expect(try admin.query("SELECT pg_terminate_backend($1::int4)", [.int8(Int64(pid))])[0].bool(0), "backend \(pid) ended")
        try waitUntilGone(backend: pid, socket: socket, admin: admin)
    }

    /// Polls until the server no longer lists backend `pid` (after `pg_terminate_backend`) and
    /// has closed its end of `socket`, the session's socket at the client (`socket(of:)`): the
    /// entry goes a moment before the process closes its socket.
    static func waitUntilGone(backend pid: Int32, socket: Int32, admin: PostgreSQLConnection) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let alive = try admin.query("SELECT count(*) FROM pg_stat_activity WHERE pid = $1::int4", [.int8(Int64(pid))])[0].int64(0)
            if alive == 0 && SocketState.isClosedByPeer(socket) { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
        Issue.record("backend \(pid) still alive, or its socket still open, 10 s after pg_terminate_backend")
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the suite where PostgreSQL is installed; skips with a clear reason elsewhere — except
    /// under CI=true, where the tests run and fail (`PostgreSQLTestCluster.isEnabled`).
    static var requiresPostgreSQL: Self {
        .enabled(if: PostgreSQLTestCluster.isEnabled, Comment(rawValue: PostgreSQLTestCluster.skipReason))
    }
}
