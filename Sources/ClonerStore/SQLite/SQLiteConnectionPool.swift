import Foundation

/// Hands out SQLite connections, each to one caller at a time.
///
/// `@unchecked Sendable`: the idle list is only touched under `lock`, and a connection leaves the
/// list before its borrower uses it and returns only after, so no connection is ever used by two
/// threads at once — the condition SQLite's NOMUTEX mode relies on.
final class SQLiteConnectionPool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [SQLiteConnection] = []
    private let maximumIdle: Int
    private let factory: @Sendable () throws -> SQLiteConnection

    init(maximumIdle: Int, factory: @escaping @Sendable () throws -> SQLiteConnection) {
        self.maximumIdle = maximumIdle
        self.factory = factory
    }

    func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let connection = try checkout()
        defer { checkin(connection) }
        return try body(connection)
    }

    private func checkout() throws -> SQLiteConnection {
        lock.lock()
        if let connection = idle.popLast() {
            lock.unlock()
            return connection
        }
        lock.unlock()
        return try factory()
    }

    private func checkin(_ connection: SQLiteConnection) {
        // A connection that escaped with an open transaction (a bug, or a crash mid-body) must not
        // poison the next borrower.
        if connection.isInTransaction { try? connection.execute("ROLLBACK") }
        lock.lock()
        defer { lock.unlock() }
        if idle.count < maximumIdle { idle.append(connection) }
    }

    func drain() {
        lock.lock()
        idle.removeAll()
        lock.unlock()
    }
}
