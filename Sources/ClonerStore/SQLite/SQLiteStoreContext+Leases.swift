import Foundation

/// Replica leases on the service tables (docs/architecture.md#replicas). One process writes at a time here, so a
/// check and the write that follows it cannot interleave with another writer's.
extension SQLiteStoreContext {
    private var idempotency: String { "\"\(ServiceTables.idempotency)\"" }
    private var jobs: String { "\"\(ServiceTables.jobs)\"" }

    public func reserveIdempotencyKey(_ key: String, fingerprint: String, owner: String, leaseExpiresAt: Date, now: Date) throws -> IdempotencyClaim {
        var existing: (state: String, fingerprint: String, lease: Int64?)?
        try connection.forEachRow("SELECT state, fingerprint, lease_expires_at FROM \(idempotency) WHERE key = ?", [.text(key)]) { row in
            existing = (row.string(0), row.string(1), row.isNull(2) ? nil : row.int64(2))
        }
        if let existing {
            if existing.state == "done", let record = try idempotencyRecord(key: key) { return .finished(record) }
            if let lease = existing.lease, lease >= Int64((now.timeIntervalSince1970 * 1000).rounded()) {
                return .inProgress(fingerprint: existing.fingerprint)
            }
        }
        // Absent, or in progress under a lease that ran out (its owner died): the caller's now.
        try connection.execute(
            """
            INSERT OR REPLACE INTO \(idempotency) (key, fingerprint, status, location, body, created_at, state, owner, lease_expires_at)
            VALUES (?, ?, 0, NULL, x'', ?, 'in_progress', ?, ?)
            """, [.text(key), .text(fingerprint), Self.milliseconds(now), .text(owner), Self.milliseconds(leaseExpiresAt)])
        return .reserved
    }

    public func peekIdempotencyKey(_ key: String, now: Date) throws -> IdempotencyClaim? {
        var existing: (state: String, fingerprint: String, lease: Int64?)?
        try connection.forEachRow("SELECT state, fingerprint, lease_expires_at FROM \(idempotency) WHERE key = ?", [.text(key)]) { row in
            existing = (row.string(0), row.string(1), row.isNull(2) ? nil : row.int64(2))
        }
        guard let existing else { return nil }
        if existing.state == "done" { return try idempotencyRecord(key: key).map(IdempotencyClaim.finished) }
        if let lease = existing.lease, lease >= Int64((now.timeIntervalSince1970 * 1000).rounded()) {
            return .inProgress(fingerprint: existing.fingerprint)
        }
        return nil
    }

    public func releaseIdempotencyKey(_ key: String, owner: String) throws {
        try connection.execute("DELETE FROM \(idempotency) WHERE key = ? AND owner = ? AND state = 'in_progress'", [.text(key), .text(owner)])
    }

    public func holdIdempotencyReservation(_ key: String, owner: String) throws -> Bool {
        try connection.scalar(
            "SELECT count(*) FROM \(idempotency) WHERE key = ? AND owner = ? AND state = 'in_progress'",
            [.text(key), .text(owner)])?.int64 == 1
    }

    public func holdJob(id: String, owner: String) throws -> Bool {
        try connection.scalar(
            "SELECT count(*) FROM \(jobs) WHERE id = ? AND owner = ? AND status IN ('queued', 'running')",
            [.text(id), .text(owner)])?.int64 == 1
    }

    @discardableResult
    public func markJobRunning(id: String, owner: String) throws -> Bool {
        try connection.execute(
            "UPDATE \(jobs) SET status = 'running' WHERE id = ? AND owner = ? AND status = 'queued'",
            [.text(id), .text(owner)])
        return connection.changes == 1
    }

    @discardableResult
    public func renewLeases(owner: String, until: Date) throws -> Int {
        try connection.execute(
            "UPDATE \(jobs) SET lease_expires_at = ? WHERE owner = ? AND status IN ('queued', 'running')",
            [Self.milliseconds(until), .text(owner)])
        var renewed = connection.changes
        try connection.execute(
            "UPDATE \(idempotency) SET lease_expires_at = ? WHERE owner = ? AND state = 'in_progress'",
            [Self.milliseconds(until), .text(owner)])
        renewed += connection.changes
        return renewed
    }

    /// Rows with no lease at all were left by a version without leases: their process is gone.
    @discardableResult
    public func failExpiredLeases(error: Data, now: Date, excludingOwner owner: String) throws -> (jobs: Int, reservations: Int) {
        let expired = "status IN ('queued', 'running') AND owner IS NOT ? AND (lease_expires_at IS NULL OR lease_expires_at < ?)"
        // The answer pointing at such a job goes: nothing was cloned, so a retry must clone.
        try connection.execute(
            """
            DELETE FROM \(idempotency) AS answer WHERE answer.location IS NOT NULL AND EXISTS (
              SELECT 1 FROM \(jobs) AS job WHERE \(expired) AND substr(answer.location, -length(job.id) - 1) = '/' || job.id)
            """, [.text(owner), Self.milliseconds(now)])
        try connection.execute(
            "UPDATE \(jobs) SET status = 'failed', error = ?, finished_at = ?, lease_expires_at = NULL WHERE \(expired)",
            [.blob(error), Self.milliseconds(now), .text(owner), Self.milliseconds(now)])
        let failed = connection.changes
        try connection.execute(
            """
            DELETE FROM \(idempotency) WHERE state = 'in_progress' AND owner IS NOT ? AND (lease_expires_at IS NULL OR lease_expires_at < ?)
            """, [.text(owner), Self.milliseconds(now)])
        return (failed, connection.changes)
    }
}
