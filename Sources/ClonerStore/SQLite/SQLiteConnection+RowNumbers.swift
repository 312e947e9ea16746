import CSQLite

extension SQLiteConnection {
    /// The SQL function that numbers a statement's rows: `_cloner_row_number()` returns 1, 2, 3, …
    /// in the order SQLite evaluates it, counting from the last `resetRowNumbers()`.
    ///
    /// The clone's map fill numbers each entity's new ids with it. `row_number() OVER (…)` does the
    /// same inside SQLite, but through its window machinery, which buffers every row before it
    /// numbers the first; this function numbers them as they stream. It
    /// is not deterministic, so SQLite calls it once per row it evaluates, and `DIRECTONLY`: a
    /// schema's views and triggers may not call it.
    static let rowNumberFunction = "_cloner_row_number"

    /// Starts the row numbers again at 1: before each statement that numbers rows.
    func resetRowNumbers() {
        rowNumbers.last = 0
    }

    /// Registers `rowNumberFunction` on this connection: where it opens, before any statement is
    /// prepared (defining a function expires every prepared statement of the connection).
    func registerRowNumberFunction() throws(SQLiteError) {
        let counter = Unmanaged.passUnretained(rowNumbers).toOpaque()
        let code = sqlite3_create_function_v2(
            handle, Self.rowNumberFunction, 0, SQLITE_UTF8 | SQLITE_DIRECTONLY, counter,
            { context, _, _ in
                guard let context, let counter = sqlite3_user_data(context) else { return }
                let numbers = Unmanaged<SQLiteRowNumbers>.fromOpaque(counter).takeUnretainedValue()
                numbers.last += 1
                sqlite3_result_int64(context, numbers.last)
            }, nil, nil, nil)
        guard code == SQLITE_OK else { throw lastError(code: code, sql: nil) }
    }
}

/// The counter behind `_cloner_row_number()`, owned by its connection (which outlives every call:
/// the function is called only from the connection's statements) and used on its thread only.
final class SQLiteRowNumbers {
    var last: Int64 = 0
}
