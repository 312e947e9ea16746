import Foundation

extension SQLiteStoreContext {
    static func milliseconds(_ date: Date) -> SQLiteValue { .integer(Int64((date.timeIntervalSince1970 * 1000).rounded())) }
    private static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    public func idempotencyRecord(key: String) throws -> IdempotencyRecord? {
        var record: IdempotencyRecord?
        try connection.forEachRow(
            "SELECT fingerprint, status, location, body, created_at FROM \"\(ServiceTables.idempotency)\" WHERE key = ? AND state = 'done'", [.text(key)]
        ) { row in
            record = IdempotencyRecord(
                key: key, fingerprint: row.string(0), status: Int(row.int64(1)),
                location: row.isNull(2) ? nil : row.string(2), body: row.data(3),
                createdAt: SQLiteStoreContext.date(row.int64(4)))
        }
        return record
    }

    public func saveIdempotencyRecord(_ record: IdempotencyRecord) throws {
        try connection.execute(
            """
            INSERT OR REPLACE INTO "\(ServiceTables.idempotency)" (key, fingerprint, status, location, body, created_at, state, owner, lease_expires_at)
            VALUES (?, ?, ?, ?, ?, ?, 'done', NULL, NULL)
            """,
            [
                .text(record.key), .text(record.fingerprint), .integer(Int64(record.status)),
                record.location.map(SQLiteValue.text) ?? .null, .blob(record.body), SQLiteStoreContext.milliseconds(record.createdAt),
            ])
    }

    /// Forgets answers older than `date`; returns how many.
    @discardableResult
    public func purgeIdempotencyRecords(olderThan date: Date) throws -> Int {
        try connection.execute("DELETE FROM \"\(ServiceTables.idempotency)\" WHERE created_at < ?", [SQLiteStoreContext.milliseconds(date)])
        return connection.changes
    }

    public func saveJob(_ job: JobRecord) throws {
        try connection.execute(
            """
            INSERT OR REPLACE INTO "\(ServiceTables.jobs)" (id, status, request, result, error, created_at, finished_at, owner, lease_expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(job.id), .text(job.status.rawValue), .blob(job.request), job.result.map(SQLiteValue.blob) ?? .null,
                job.error.map(SQLiteValue.blob) ?? .null, SQLiteStoreContext.milliseconds(job.createdAt),
                job.finishedAt.map(SQLiteStoreContext.milliseconds) ?? .null, job.owner.map(SQLiteValue.text) ?? .null,
                job.leaseExpiresAt.map(SQLiteStoreContext.milliseconds) ?? .null,
            ])
    }

    public func job(id: String) throws -> JobRecord? {
        var job: JobRecord?
        try connection.forEachRow(
            "SELECT status, request, result, error, created_at, finished_at, owner, lease_expires_at FROM \"\(ServiceTables.jobs)\" WHERE id = ?", [.text(id)]
        ) { row in
            job = JobRecord(
                id: id, status: JobStatus(rawValue: row.string(0)) ?? .failed, request: row.data(1), result: row.isNull(2) ? nil : row.data(2),
                error: row.isNull(3) ? nil : row.data(3), createdAt: SQLiteStoreContext.date(row.int64(4)),
                finishedAt: row.isNull(5) ? nil : SQLiteStoreContext.date(row.int64(5)),
                owner: row.isNull(6) ? nil : row.string(6), leaseExpiresAt: row.isNull(7) ? nil : SQLiteStoreContext.date(row.int64(7)))
        }
        return job
    }

    /// Forgets finished jobs older than `date`.
    @discardableResult
    public func purgeJobs(finishedBefore date: Date) throws -> Int {
        try connection.execute(
            "DELETE FROM \"\(ServiceTables.jobs)\" WHERE finished_at IS NOT NULL AND finished_at < ?", [SQLiteStoreContext.milliseconds(date)])
        return connection.changes
    }
}
