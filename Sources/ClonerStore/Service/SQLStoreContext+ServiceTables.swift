import Foundation

/// Idempotency answers and jobs (`ServiceTablesContext`), written once for every backend.
extension SQLStoreContext {
    private var idempotency: String { ServiceTables.quotedIdempotency }
    private var jobs: String { ServiceTables.quotedJobs }
    private func parameters(_ range: ClosedRange<Int>) -> String { range.map(Dialect.parameter).joined(separator: ", ") }

    func idempotencyRecord(key: String) throws -> IdempotencyRecord? {
        var record: IdempotencyRecord?
        try connection.forEachRow(
            "SELECT fingerprint, status, location, body, created_at FROM \(idempotency) WHERE key = \(Dialect.parameter(1)) AND state = 'done'",
            arguments: [.text(key)]
        ) { row in
            record = IdempotencyRecord(
                key: key, fingerprint: row.text(0), status: Int(row.int64(1)), location: row.optionalText(2), body: row.data(3),
                createdAt: row.date(4))
        }
        return record
    }

    func saveIdempotencyRecord(_ record: IdempotencyRecord) throws {
        try connection.perform(
            """
            INSERT INTO \(idempotency) (key, fingerprint, status, location, body, created_at, state, owner, lease_expires_at)
            VALUES (\(parameters(1...6)), 'done', NULL, NULL)
            ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status,
              location = excluded.location, body = excluded.body, created_at = excluded.created_at,
              state = 'done', owner = NULL, lease_expires_at = NULL
            """,
            arguments: [
                .text(record.key), .text(record.fingerprint), .integer(Int64(record.status)), record.location.map(SQLArgument.text) ?? .null,
                .bytes(record.body), .timestamp(record.createdAt),
            ])
    }

    @discardableResult
    func purgeIdempotencyRecords(olderThan date: Date) throws -> Int {
        try connection.perform("DELETE FROM \(idempotency) WHERE created_at < \(Dialect.parameter(1))", arguments: [.timestamp(date)])
    }

    func saveJob(_ job: JobRecord) throws {
        try connection.perform(
            """
            INSERT INTO \(jobs) (id, status, request, result, error, created_at, finished_at, owner, lease_expires_at)
            VALUES (\(parameters(1...9)))
            ON CONFLICT (id) DO UPDATE SET status = excluded.status, request = excluded.request, result = excluded.result,
              error = excluded.error, created_at = excluded.created_at, finished_at = excluded.finished_at,
              owner = excluded.owner, lease_expires_at = excluded.lease_expires_at
            """,
            arguments: [
                .text(job.id), .text(job.status.rawValue), .bytes(job.request), job.result.map(SQLArgument.bytes) ?? .null,
                job.error.map(SQLArgument.bytes) ?? .null, .timestamp(job.createdAt), job.finishedAt.map(SQLArgument.timestamp) ?? .null,
                job.owner.map(SQLArgument.text) ?? .null, job.leaseExpiresAt.map(SQLArgument.timestamp) ?? .null,
            ])
    }

    func job(id: String) throws -> JobRecord? {
        var job: JobRecord?
        try connection.forEachRow(
            "SELECT status, request, result, error, created_at, finished_at, owner, lease_expires_at FROM \(jobs) WHERE id = \(Dialect.parameter(1))",
            arguments: [.text(id)]
        ) { row in
            job = JobRecord(
                id: id, status: JobStatus(rawValue: row.text(0)) ?? .failed, request: row.data(1), result: row.optionalData(2),
                error: row.optionalData(3), createdAt: row.date(4), finishedAt: row.optionalDate(5), owner: row.optionalText(6),
                leaseExpiresAt: row.optionalDate(7))
        }
        return job
    }

    @discardableResult
    func purgeJobs(finishedBefore date: Date) throws -> Int {
        // Requests whose job ended otherwise (it committed first) go with the jobs of their time.
        try connection.perform(
            "DELETE FROM \(ServiceTables.quotedJobCancellations) WHERE requested_at < \(Dialect.parameter(1))", arguments: [.timestamp(date)])
        return try connection.perform(
            "DELETE FROM \(jobs) WHERE finished_at IS NOT NULL AND finished_at < \(Dialect.parameter(1))", arguments: [.timestamp(date)])
    }
}
