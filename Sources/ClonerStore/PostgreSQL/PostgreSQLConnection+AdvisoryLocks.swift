extension PostgreSQLConnection {
    /// A stable 64-bit advisory-lock key for a name (FNV-1a over its UTF-8), so every replica
    /// derives the same key for, say, "cloner.schema-migration" without a registry of numbers.
    package static func advisoryLockKey(_ name: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }

    /// Runs `body` holding the session-level advisory lock `key` (`pg_advisory_lock`), waiting as
    /// long as another session holds it: how replicas starting together let one of them migrate
    /// the schema while the others wait, then find it done. The lock is released when `body`
    /// returns or throws — and by the server if the session dies.
    @discardableResult
    package func withAdvisoryLock<T>(key: Int64, _ body: () throws -> T) throws -> T {
        try cachedQuery("SELECT pg_advisory_lock($1)", [.int8(key)])
        defer { _ = try? cachedQuery("SELECT pg_advisory_unlock($1)", [.int8(key)]) }
        return try body()
    }

    /// Takes the session-level advisory lock `key` if no other session holds it
    /// (`pg_try_advisory_lock`); the caller releases it with `releaseAdvisoryLock(key:)`.
    package func tryAdvisoryLock(key: Int64) throws(PostgreSQLError) -> Bool {
        try cachedQuery("SELECT pg_try_advisory_lock($1)", [.int8(key)])[0].bool(0)
    }

    /// Releases a session-level advisory lock this session holds; false if it held none.
    @discardableResult
    package func releaseAdvisoryLock(key: Int64) throws(PostgreSQLError) -> Bool {
        try cachedQuery("SELECT pg_advisory_unlock($1)", [.int8(key)])[0].bool(0)
    }

    /// Takes the transaction-level advisory lock `key` if free (`pg_try_advisory_xact_lock`),
    /// held until the current transaction ends — nothing to release, even on a crash.
    package func tryAdvisoryTransactionLock(key: Int64) throws(PostgreSQLError) -> Bool {
        precondition(isInTransactionBlock || isInTransaction, "a transaction-level advisory lock needs an open transaction")
        return try cachedQuery("SELECT pg_try_advisory_xact_lock($1)", [.int8(key)])[0].bool(0)
    }
}
