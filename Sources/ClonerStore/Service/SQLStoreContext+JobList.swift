import Foundation

/// The jobs a user lists and stops (`GET /jobs`, `DELETE /jobs/{id}`), written once for every backend.
extension SQLStoreContext {
    private var idempotency: String { ServiceTables.quotedIdempotency }
    private var jobs: String { ServiceTables.quotedJobs }
    private var cancellations: String { ServiceTables.quotedJobCancellations }
    private func p(_ n: Int) -> String { Dialect.parameter(n) }

    func jobs(status: JobStatus?, after position: JobListPosition?, limit: Int) throws -> [JobRecord] {
        var conditions: [String] = []
        var arguments: [SQLArgument] = []
        if let status {
            arguments.append(.text(status.rawValue))
            conditions.append("status = \(p(arguments.count))")
        }
        if let position {
            arguments.append(.timestamp(Date(timeIntervalSince1970: Double(position.createdAtMilliseconds) / 1000)))
            arguments.append(.text(position.id))
            conditions.append("(created_at, id) < (\(p(arguments.count - 1)), \(p(arguments.count)))")
        }
        arguments.append(.integer(Int64(limit)))
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        var found: [JobRecord] = []
        try connection.forEachRow(
            """
            SELECT id, status, request, result, error, created_at, finished_at, owner, lease_expires_at FROM \(jobs)\(filter)
            ORDER BY created_at DESC, id DESC LIMIT \(p(arguments.count))
            """, arguments: arguments
        ) { row in
            found.append(
                JobRecord(
                    id: row.text(0), status: JobStatus(rawValue: row.text(1)) ?? .failed, request: row.data(2), result: row.optionalData(3),
                    error: row.optionalData(4), createdAt: row.date(5), finishedAt: row.optionalDate(6), owner: row.optionalText(7),
                    leaseExpiresAt: row.optionalDate(8)))
        }
        return found
    }

    @discardableResult
    func cancelJob(id: String, error: Data?, now: Date) throws -> Bool {
        let cancelled = try connection.perform(
            """
            UPDATE \(jobs) SET status = 'cancelled', error = \(p(2)), finished_at = \(p(3)), lease_expires_at = NULL
            WHERE id = \(p(1)) AND status IN ('queued', 'running')
            """, arguments: [.text(id), error.map(SQLArgument.bytes) ?? .null, .timestamp(now)])
        // The 202 a retry would replay points at a job that wrote nothing: the key runs again.
        try connection.perform("DELETE FROM \(idempotency) WHERE location = \(p(1))", arguments: [.text("/jobs/\(id)")])
        try connection.perform("DELETE FROM \(cancellations) WHERE id = \(p(1))", arguments: [.text(id)])
        return cancelled == 1
    }

    func failJob(id: String, error: Data, now: Date, releasingKey: Bool) throws -> Bool {
        let failed = try connection.perform(
            """
            UPDATE \(jobs) SET status = 'failed', error = \(p(2)), finished_at = \(p(3)), lease_expires_at = NULL
            WHERE id = \(p(1)) AND status IN ('queued', 'running')
            """, arguments: [.text(id), .bytes(error), .timestamp(now)])
        if failed == 1, releasingKey {
            try connection.perform("DELETE FROM \(idempotency) WHERE location = \(p(1))", arguments: [.text("/jobs/\(id)")])
        }
        return failed == 1
    }

    func statementInterrupter() -> any StatementInterrupter {
        connection.statementInterrupter()
    }

    /// Reads the job's row without locking it: a running job's transaction holds that lock.
    @discardableResult
    func requestJobCancellation(id: String, now: Date) throws -> Bool {
        var unfinished = false
        try connection.forEachRow("SELECT 1 FROM \(jobs) WHERE id = \(p(1)) AND status IN ('queued', 'running')", arguments: [.text(id)]) { _ in
            unfinished = true
        }
        guard unfinished else { return false }
        try connection.perform(
            "INSERT INTO \(cancellations) (id, requested_at) VALUES (\(p(1)), \(p(2))) ON CONFLICT (id) DO NOTHING",
            arguments: [.text(id), .timestamp(now)])
        return true
    }

    func requestedJobCancellations(owner: String) throws -> [String] {
        var ids: [String] = []
        try connection.forEachRow(
            """
            SELECT request.id FROM \(cancellations) AS request JOIN \(jobs) AS job ON job.id = request.id
            WHERE job.owner = \(p(1)) AND job.status IN ('queued', 'running')
            """, arguments: [.text(owner)]
        ) { ids.append($0.text(0)) }
        return ids
    }
}
