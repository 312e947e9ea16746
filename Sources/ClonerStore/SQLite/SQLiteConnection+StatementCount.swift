import CSQLite

extension SQLiteConnection {
    /// Runs `body` and counts the SQL statements SQLite started meanwhile (each `sqlite3_step` of
    /// a fresh run, each statement of a multi-statement `execute`), through `sqlite3_trace_v2`.
    /// For tests that prove a bulk operation's statements do not grow with its size.
    package func countingStatements<T>(_ body: () throws -> T) rethrows -> (result: T, statements: Int) {
        var count = 0
        let result = try tracing(UInt32(SQLITE_TRACE_STMT), { _, _ in count += 1 }, body)
        return (result, count)
    }

    /// Runs `body` and returns the text of every statement SQLite started meanwhile, in order —
    /// for tests that look at how SQLite runs what a bulk operation sent (`EXPLAIN` of each).
    package func recordingStatements<T>(_ body: () throws -> T) rethrows -> (result: T, statements: [String]) {
        var statements: [String] = []
        let result = try tracing(UInt32(SQLITE_TRACE_STMT), { sql, _ in statements.append(sql) }, body)
        return (result, statements)
    }

    /// Runs `body` and returns, per statement text, how many times it ran and the nanoseconds it
    /// took from its first step to its reset, in the order each first finished — where a bulk
    /// operation's time goes, for benchmarks. The time is this process's monotonic clock read at
    /// SQLite's start and profile events: SQLite's own profile time comes from the VFS clock,
    /// which on Unix counts whole milliseconds, too coarse for the statements of a small copy.
    package func profilingStatements<T>(_ body: () throws -> T) rethrows -> (result: T, statements: [(sql: String, runs: Int, nanoseconds: Int64)]) {
        var order: [String] = []
        var totals: [String: (runs: Int, nanoseconds: Int64)] = [:]
        var started: [String: ContinuousClock.Instant] = [:]
        let clock = ContinuousClock()
        let result = try tracing(
            UInt32(SQLITE_TRACE_STMT | SQLITE_TRACE_PROFILE),
            { sql, profiled in
                guard profiled != nil else {
                    // A trigger's statements report as comments inside their statement's run.
                    if !sql.hasPrefix("--") && started[sql] == nil { started[sql] = clock.now }
                    return
                }
                let elapsed = started.removeValue(forKey: sql).map { clock.now - $0 } ?? .zero
                let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
                if totals[sql] == nil { order.append(sql) }
                totals[sql, default: (0, 0)].runs += 1
                totals[sql, default: (0, 0)].nanoseconds += nanoseconds
            }, body)
        return (result, order.map { (sql: $0, runs: totals[$0]!.runs, nanoseconds: totals[$0]!.nanoseconds) })
    }

    /// `body` with `sqlite3_trace_v2` calling `event` for each `mask` event: the statement's text,
    /// and for a profile event its nanoseconds. The trace is removed when `body` returns.
    private func tracing<T>(_ mask: UInt32, _ event: (String, Int64?) -> Void, _ body: () throws -> T) rethrows -> T {
        try withoutActuallyEscaping(event) { event in
            let sink = TraceSink(event)
            let context = Unmanaged.passRetained(sink)
            defer { context.release() }
            sqlite3_trace_v2(
                handle, mask,
                { kind, context, statement, detail in
                    guard let context, let statement, let text = sqlite3_sql(OpaquePointer(statement)) else { return 0 }
                    let nanoseconds = kind == UInt32(SQLITE_TRACE_PROFILE) ? detail?.load(as: Int64.self) : nil
                    Unmanaged<TraceSink>.fromOpaque(context).takeUnretainedValue().event(String(cString: text), nanoseconds)
                    return 0
                }, context.toOpaque())
            defer { sqlite3_trace_v2(handle, 0, nil, nil) }
            return try body()
        }
    }
}

/// What `tracing` hands SQLite as the callback's context; only used on the connection's own
/// thread, within the traced call.
private final class TraceSink {
    let event: (String, Int64?) -> Void

    init(_ event: @escaping (String, Int64?) -> Void) {
        self.event = event
    }
}
