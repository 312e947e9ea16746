import CSQLite

extension SQLiteConnection {
    /// Runs `body` and counts the SQL statements SQLite started meanwhile (each `sqlite3_step` of
    /// a fresh run, each statement of a multi-statement `execute`), through `sqlite3_trace_v2`.
    /// For tests that prove a bulk operation's statements do not grow with its size.
    package func countingStatements<T>(_ body: () throws -> T) rethrows -> (result: T, statements: Int) {
        let counter = StatementCounter()
        let context = Unmanaged.passRetained(counter)
        defer { context.release() }
        sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_STMT), { _, context, _, _ in
            guard let context else { return 0 }
            Unmanaged<StatementCounter>.fromOpaque(context).takeUnretainedValue().count += 1
            return 0
        }, context.toOpaque())
        defer { sqlite3_trace_v2(handle, 0, nil, nil) }
        let result = try body()
        return (result, counter.count)
    }
}

/// The count `countingStatements` keeps; only touched on the connection's own thread.
private final class StatementCounter {
    var count = 0
}

extension SQLiteConnection {
    /// Runs `body` and returns the text of every statement SQLite started meanwhile, in order —
    /// for tests that look at how SQLite runs what a bulk operation sent (`EXPLAIN` of each).
    package func recordingStatements<T>(_ body: () throws -> T) rethrows -> (result: T, statements: [String]) {
        let recorder = StatementRecorder()
        let context = Unmanaged.passRetained(recorder)
        defer { context.release() }
        sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_STMT), { _, context, statement, _ in
            guard let context, let statement, let text = sqlite3_sql(OpaquePointer(statement)) else { return 0 }
            Unmanaged<StatementRecorder>.fromOpaque(context).takeUnretainedValue().statements.append(String(cString: text))
            return 0
        }, context.toOpaque())
        defer { sqlite3_trace_v2(handle, 0, nil, nil) }
        let result = try body()
        return (result, recorder.statements)
    }
}

/// The texts `recordingStatements` keeps; only touched on the connection's own thread.
private final class StatementRecorder {
    var statements: [String] = []
}

extension SQLiteConnection {
    /// Runs `body` and returns, per statement text, how many times it ran and the nanoseconds
    /// SQLite spent in it (`SQLITE_TRACE_PROFILE`), in the order each first finished — where a
    /// bulk operation's time goes, for benchmarks.
    package func profilingStatements<T>(_ body: () throws -> T) rethrows -> (result: T, statements: [(sql: String, runs: Int, nanoseconds: Int64)]) {
        let profiler = StatementProfiler()
        let context = Unmanaged.passRetained(profiler)
        defer { context.release() }
        sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_PROFILE), { _, context, statement, elapsed in
            guard let context, let statement, let elapsed, let text = sqlite3_sql(OpaquePointer(statement)) else { return 0 }
            Unmanaged<StatementProfiler>.fromOpaque(context).takeUnretainedValue()
                .add(String(cString: text), nanoseconds: elapsed.load(as: Int64.self))
            return 0
        }, context.toOpaque())
        defer { sqlite3_trace_v2(handle, 0, nil, nil) }
        let result = try body()
        return (result, profiler.order.map { (sql: $0, runs: profiler.totals[$0]!.runs, nanoseconds: profiler.totals[$0]!.nanoseconds) })
    }
}

/// The totals `profilingStatements` keeps; only touched on the connection's own thread.
private final class StatementProfiler {
    var order: [String] = []
    var totals: [String: (runs: Int, nanoseconds: Int64)] = [:]

    func add(_ sql: String, nanoseconds: Int64) {
        if totals[sql] == nil { order.append(sql) }
        totals[sql, default: (0, 0)].runs += 1
        totals[sql, default: (0, 0)].nanoseconds += nanoseconds
    }
}
