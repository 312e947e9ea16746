import Foundation

/// Replica leases on the service tables (docs/architecture.md#replicas). Writes run REPEATABLE READ, so a row
/// another transaction changed since this one's snapshot fails with a serialization failure
/// and the store runs the body again: every check here sees the row as it now is.
///
/// A running clone locks its job row (and its key's reservation) for the whole of its
/// transaction (`holdJob`, `holdIdempotencyReservation`); renewal and expiry scans skip locked
/// rows (`SKIP LOCKED`). A lock is held only by a live session — PostgreSQL ends a dead
/// replica's transaction and its locks with its connection — so a locked row's owner is alive,
/// and the clone's final write never collides with a renewal of the same row.
extension PostgreSQLStoreContext {
    func reserveIdempotencyKey(_ key: String, fingerprint: String, owner: String, leaseExpiresAt: Date, now: Date) throws -> IdempotencyClaim {
        let inserted = try run(
            """
            INSERT INTO \(Self.idempotency) (key, fingerprint, status, location, body, created_at, state, owner, lease_expires_at)
            VALUES ($1, $2, 0, NULL, ''::bytea, $3, 'in_progress', $4, $5) ON CONFLICT (key) DO NOTHING
            """, [Self.key(key), Self.key(fingerprint), Self.milliseconds(now), Self.key(owner), Self.milliseconds(leaseExpiresAt)]
        ).affectedRows
        if inserted == 1 { return .reserved }
        let locked = try run(
            """
            SELECT state, fingerprint, status, location, body, created_at, lease_expires_at FROM \(Self.idempotency)
            WHERE key = $1 FOR UPDATE SKIP LOCKED
            """, [Self.key(key)])
        guard locked.rowCount > 0 else {
            // A running clone holds the row: its owner is alive.
            let held = try run("SELECT fingerprint FROM \(Self.idempotency) WHERE key = $1", [Self.key(key)])
            return .inProgress(fingerprint: held.rowCount > 0 ? held[0].string(0) : fingerprint)
        }
        let row = locked[0]
        if row.string(0) == "done" {
            return .finished(
                IdempotencyRecord(
                    key: key, fingerprint: row.string(1), status: Int(row.int64(2)), location: row.optionalString(3),
                    body: row.data(4), createdAt: Self.date(row, 5)))
        }
        if !row.isNull(6) && row.timestampMilliseconds(6) >= Int64((now.timeIntervalSince1970 * 1000).rounded()) {
            return .inProgress(fingerprint: row.string(1))
        }
        // In progress under a lease that ran out: its owner died and its clone rolled back.
        try run(
            """
            UPDATE \(Self.idempotency) SET fingerprint = $2, created_at = $3, owner = $4, lease_expires_at = $5 WHERE key = $1
            """, [Self.key(key), Self.key(fingerprint), Self.milliseconds(now), Self.key(owner), Self.milliseconds(leaseExpiresAt)])
        return .reserved
    }

    func peekIdempotencyKey(_ key: String, now: Date) throws -> IdempotencyClaim? {
        let result = try run("SELECT state, fingerprint, lease_expires_at FROM \(Self.idempotency) WHERE key = $1", [Self.key(key)])
        guard result.rowCount > 0 else { return nil }
        let row = result[0]
        if row.string(0) == "done" { return try idempotencyRecord(key: key).map(IdempotencyClaim.finished) }
        if !row.isNull(2) && row.timestampMilliseconds(2) >= Int64((now.timeIntervalSince1970 * 1000).rounded()) {
            return .inProgress(fingerprint: row.string(1))
        }
        return nil
    }

    func releaseIdempotencyKey(_ key: String, owner: String) throws {
        try run("DELETE FROM \(Self.idempotency) WHERE key = $1 AND owner = $2 AND state = 'in_progress'", [Self.key(key), Self.key(owner)])
    }

    func holdIdempotencyReservation(_ key: String, owner: String) throws -> Bool {
        try run(
            "SELECT 1 FROM \(Self.idempotency) WHERE key = $1 AND owner = $2 AND state = 'in_progress' FOR UPDATE",
            [Self.key(key), Self.key(owner)]
        ).rowCount == 1
    }

    func holdJob(id: String, owner: String) throws -> Bool {
        try run(
            "SELECT 1 FROM \(Self.jobs) WHERE id = $1 AND owner = $2 AND status IN ('queued', 'running') FOR UPDATE",
            [Self.key(id), Self.key(owner)]
        ).rowCount == 1
    }

    @discardableResult
    func markJobRunning(id: String, owner: String) throws -> Bool {
        try run(
            "UPDATE \(Self.jobs) SET status = 'running' WHERE id = $1 AND owner = $2 AND status = 'queued'",
            [Self.key(id), Self.key(owner)]
        ).affectedRows == 1
    }

    @discardableResult
    func renewLeases(owner: String, until: Date) throws -> Int {
        let jobs = try run(
            """
            UPDATE \(Self.jobs) SET lease_expires_at = $1 WHERE id IN (
              SELECT id FROM \(Self.jobs) WHERE owner = $2 AND status IN ('queued', 'running') FOR UPDATE SKIP LOCKED)
            """, [Self.milliseconds(until), Self.key(owner)]
        ).affectedRows
        let keys = try run(
            """
            UPDATE \(Self.idempotency) SET lease_expires_at = $1 WHERE key IN (
              SELECT key FROM \(Self.idempotency) WHERE owner = $2 AND state = 'in_progress' FOR UPDATE SKIP LOCKED)
            """, [Self.milliseconds(until), Self.key(owner)]
        ).affectedRows
        return jobs + keys
    }

    /// Rows with no lease at all were left by a version without leases: their process is gone.
    @discardableResult
    func failExpiredLeases(error: Data, now: Date, excludingOwner owner: String) throws -> (jobs: Int, reservations: Int) {
        let jobs = try run(
            """
            WITH expired AS (
              SELECT id FROM \(Self.jobs) WHERE status IN ('queued', 'running') AND owner IS DISTINCT FROM $3
                AND (lease_expires_at IS NULL OR lease_expires_at < $2) FOR UPDATE SKIP LOCKED),
            failed AS (
              UPDATE \(Self.jobs) AS job SET status = 'failed', error = $1, finished_at = $2, lease_expires_at = NULL
              FROM expired WHERE job.id = expired.id RETURNING job.id),
            forgotten AS (
              DELETE FROM \(Self.idempotency) AS answer USING failed
              WHERE answer.location IS NOT NULL AND right(answer.location, length(failed.id) + 1) = '/' || failed.id RETURNING 1)
            SELECT (SELECT count(*) FROM failed), (SELECT count(*) FROM forgotten)
            """, [.bytea(error), Self.milliseconds(now), Self.key(owner)])[0].int64(0)
        let keys = try run(
            """
            DELETE FROM \(Self.idempotency) WHERE key IN (
              SELECT key FROM \(Self.idempotency) WHERE state = 'in_progress' AND owner IS DISTINCT FROM $1
                AND (lease_expires_at IS NULL OR lease_expires_at < $2) FOR UPDATE SKIP LOCKED)
            """, [Self.key(owner), Self.milliseconds(now)]
        ).affectedRows
        return (Int(jobs), keys)
    }
}
