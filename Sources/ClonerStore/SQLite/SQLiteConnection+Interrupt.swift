import CSQLite

extension SQLiteConnection {
    /// `sqlite3_interrupt` on this connection's handle.
    func statementInterrupter() -> any StatementInterrupter {
        SQLiteInterrupter(handle: handle)
    }
}

/// `@unchecked Sendable`: SQLite documents `sqlite3_interrupt` as safe to call from any thread
/// while the connection is open, and the holder calls it only while the transaction it was taken
/// from is open (`StatementInterrupter`), so the handle cannot be closed under it.
private struct SQLiteInterrupter: StatementInterrupter, @unchecked Sendable {
    let handle: OpaquePointer

    func interrupt() {
        sqlite3_interrupt(handle)
    }
}
