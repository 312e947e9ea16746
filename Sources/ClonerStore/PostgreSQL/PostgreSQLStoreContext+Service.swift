import Foundation

extension PostgreSQLStoreContext {
    static func milliseconds(_ date: Date) -> PostgreSQLValue {
        .timestamptz(millisecondsSince1970: Int64((date.timeIntervalSince1970 * 1000).rounded()))
    }

    static func date(_ row: PostgreSQLRow, _ column: Int) -> Date {
        Date(timeIntervalSince1970: Double(row.timestampMilliseconds(column)) / 1000)
    }

    static let idempotency = quoted(PostgreSQLSchema.idempotencyTable)
    static let jobs = quoted(PostgreSQLSchema.jobsTable)

    /// Keys and job ids come from clients (header values, URL paths): one holding a NUL is refused
    /// when the parameters are encoded (`PostgreSQLParameters`), an error for the request, not a
    /// stop of the process.
    static func key(_ text: String) -> PostgreSQLValue {
        .text(text)
    }

    func idempotencyRecord(key: String) throws -> IdempotencyRecord? {
        let result = try run(
            "SELECT fingerprint, status, location, body, created_at FROM \(Self.idempotency) WHERE key = $1 AND state = 'done'", [Self.key(key)])
        guard result.rowCount > 0 else { return nil }
        let row = result[0]
        return IdempotencyRecord(
            key: key, fingerprint: row.string(0), status: Int(row.int64(1)), location: row.optionalString(2),
            body: row.data(3), createdAt: Self.date(row, 4))
    }

    func saveIdempotencyRecord(_ record: IdempotencyRecord) throws {
        try run(
            """
            INSERT INTO \(Self.idempotency) (key, fingerprint, status, location, body, created_at, state, owner, lease_expires_at)
            VALUES ($1, $2, $3, $4, $5, $6, 'done', NULL, NULL)
            ON CONFLICT (key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, status = EXCLUDED.status,
              location = EXCLUDED.location, body = EXCLUDED.body, created_at = EXCLUDED.created_at,
              state = 'done', owner = NULL, lease_expires_at = NULL
            """,
            [
                Self.key(record.key), Self.key(record.fingerprint), .int8(Int64(record.status)),
                record.location.map(Self.key) ?? .null, .bytea(record.body), Self.milliseconds(record.createdAt),
            ])
    }

    /// Forgets answers older than `date`; returns how many.
    @discardableResult
    func purgeIdempotencyRecords(olderThan date: Date) throws -> Int {
        try run("DELETE FROM \(Self.idempotency) WHERE created_at < $1", [Self.milliseconds(date)]).affectedRows
    }

    func saveJob(_ job: JobRecord) throws {
        try run(
            """
            INSERT INTO \(Self.jobs) (id, status, request, result, error, created_at, finished_at, owner, lease_expires_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
            ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, request = EXCLUDED.request, result = EXCLUDED.result,
              error = EXCLUDED.error, created_at = EXCLUDED.created_at, finished_at = EXCLUDED.finished_at,
              owner = EXCLUDED.owner, lease_expires_at = EXCLUDED.lease_expires_at
            """,
            [
                Self.key(job.id), Self.key(job.status.rawValue), .bytea(job.request), job.result.map(PostgreSQLValue.bytea) ?? .null,
                job.error.map(PostgreSQLValue.bytea) ?? .null, Self.milliseconds(job.createdAt),
                job.finishedAt.map(Self.milliseconds) ?? .null, job.owner.map(Self.key) ?? .null,
                job.leaseExpiresAt.map(Self.milliseconds) ?? .null,
            ])
    }

    func job(id: String) throws -> JobRecord? {
        let result = try run(
            "SELECT status, request, result, error, created_at, finished_at, owner, lease_expires_at FROM \(Self.jobs) WHERE id = $1", [Self.key(id)])
        guard result.rowCount > 0 else { return nil }
        let row = result[0]
        return JobRecord(
            id: id, status: JobStatus(rawValue: row.string(0)) ?? .failed, request: row.data(1), result: row.optionalData(2), error: row.optionalData(3),
            createdAt: Self.date(row, 4), finishedAt: row.isNull(5) ? nil : Self.date(row, 5),
            owner: row.optionalString(6), leaseExpiresAt: row.isNull(7) ? nil : Self.date(row, 7))
    }

    /// Forgets finished jobs older than `date`.
    @discardableResult
    func purgeJobs(finishedBefore date: Date) throws -> Int {
        try run("DELETE FROM \(Self.jobs) WHERE finished_at IS NOT NULL AND finished_at < $1", [Self.milliseconds(date)]).affectedRows
    }
}
