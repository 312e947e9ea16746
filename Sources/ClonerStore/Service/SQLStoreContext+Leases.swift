import Foundation

/// Replica leases on the service tables (docs/architecture.md#replicas), written once. A write
/// runs READ COMMITTED on PostgreSQL, beside other writers: each statement sees what was committed
/// before it started, so a row is locked (`SQLRowLock`) before anything is decided on it, and
/// the decision is written while the lock holds. On SQLite one process writes at a time, so a
/// check and the write that follows it cannot interleave with another writer's, and the lock
/// clauses are empty.
///
/// A running clone locks its job row (and its key's reservation) for the whole of its
/// transaction (`holdJob`, `holdIdempotencyReservation`); renewal and expiry scans pass over
/// locked rows (`SQLRowLock.updateSkippingLocked`). A lock is held only by a live session —
/// PostgreSQL ends a dead replica's transaction and its locks with its connection — so a locked
/// row's owner is alive, and the clone's final write never collides with a renewal of the same row.
extension SQLStoreContext {
    private var idempotency: String { ServiceTables.quotedIdempotency }
    private var jobs: String { ServiceTables.quotedJobs }
    private func p(_ n: Int) -> String { Dialect.parameter(n) }

    func reserveIdempotencyKey(_ key: String, fingerprint: String, owner: String, leaseExpiresAt: Date, now: Date) throws -> IdempotencyClaim {
        let inserted = try connection.perform(
            """
            INSERT INTO \(idempotency) (key, fingerprint, status, location, body, created_at, state, owner, lease_expires_at)
            VALUES (\(p(1)), \(p(2)), 0, NULL, \(p(3)), \(p(4)), 'in_progress', \(p(5)), \(p(6))) ON CONFLICT (key) DO NOTHING
            """, arguments: [.text(key), .text(fingerprint), .bytes(Data()), .timestamp(now), .text(owner), .timestamp(leaseExpiresAt)])
        if inserted == 1 { return .reserved }
        var claim: IdempotencyClaim?
        var found = false
        try connection.forEachRow(
            """
            SELECT state, fingerprint, status, location, body, created_at, lease_expires_at FROM \(idempotency)
            WHERE key = \(p(1))\(Dialect.rowLock(.updateSkippingLocked))
            """, arguments: [.text(key)]
        ) { row in
            found = true
            if row.text(0) == "done" {
                claim = .finished(
                    IdempotencyRecord(
                        key: key, fingerprint: row.text(1), status: Int(row.int64(2)), location: row.optionalText(3), body: row.data(4),
                        createdAt: row.date(5)))
            } else if let lease = row.milliseconds(6), lease >= SQLArgument.milliseconds(now) {
                claim = .inProgress(fingerprint: row.text(1))
            }
        }
        guard found else {
            // A running clone holds the row: its owner is alive.
            var held: String?
            try connection.forEachRow("SELECT fingerprint FROM \(idempotency) WHERE key = \(p(1))", arguments: [.text(key)]) { held = $0.text(0) }
            return .inProgress(fingerprint: held ?? fingerprint)
        }
        if let claim { return claim }
        // In progress under a lease that ran out: its owner died and its clone rolled back.
        try connection.perform(
            "UPDATE \(idempotency) SET fingerprint = \(p(2)), created_at = \(p(3)), owner = \(p(4)), lease_expires_at = \(p(5)) WHERE key = \(p(1))",
            arguments: [.text(key), .text(fingerprint), .timestamp(now), .text(owner), .timestamp(leaseExpiresAt)])
        return .reserved
    }

    func peekIdempotencyKey(_ key: String, now: Date) throws -> IdempotencyClaim? {
        var existing: (done: Bool, fingerprint: String, lease: Int64?)?
        try connection.forEachRow("SELECT state, fingerprint, lease_expires_at FROM \(idempotency) WHERE key = \(p(1))", arguments: [.text(key)]) {
            existing = ($0.text(0) == "done", $0.text(1), $0.milliseconds(2))
        }
        guard let existing else { return nil }
        if existing.done { return try idempotencyRecord(key: key).map(IdempotencyClaim.finished) }
        if let lease = existing.lease, lease >= SQLArgument.milliseconds(now) { return .inProgress(fingerprint: existing.fingerprint) }
        return nil
    }

    func releaseIdempotencyKey(_ key: String, owner: String) throws {
        try connection.perform(
            "DELETE FROM \(idempotency) WHERE key = \(p(1)) AND owner = \(p(2)) AND state = 'in_progress'", arguments: [.text(key), .text(owner)])
    }

    func holdIdempotencyReservation(_ key: String, owner: String) throws -> Bool {
        try rowCount(
            "SELECT 1 FROM \(idempotency) WHERE key = \(p(1)) AND owner = \(p(2)) AND state = 'in_progress'\(Dialect.rowLock(.update))",
            [.text(key), .text(owner)]) == 1
    }

    func holdJob(id: String, owner: String) throws -> Bool {
        try rowCount(
            "SELECT 1 FROM \(jobs) WHERE id = \(p(1)) AND owner = \(p(2)) AND status IN ('queued', 'running')\(Dialect.rowLock(.update))",
            [.text(id), .text(owner)]) == 1
    }

    @discardableResult
    func markJobRunning(id: String, owner: String) throws -> Bool {
        try connection.perform(
            "UPDATE \(jobs) SET status = 'running' WHERE id = \(p(1)) AND owner = \(p(2)) AND status = 'queued'", arguments: [.text(id), .text(owner)]
        ) == 1
    }

    @discardableResult
    func renewLeases(owner: String, until: Date) throws -> Int {
        let skipping = Dialect.rowLock(.updateSkippingLocked)
        let renewedJobs = try connection.perform(
            """
            UPDATE \(jobs) SET lease_expires_at = \(p(1)) WHERE id IN (
              SELECT id FROM \(jobs) WHERE owner = \(p(2)) AND status IN ('queued', 'running')\(skipping))
            """, arguments: [.timestamp(until), .text(owner)])
        let renewedKeys = try connection.perform(
            """
            UPDATE \(idempotency) SET lease_expires_at = \(p(1)) WHERE key IN (
              SELECT key FROM \(idempotency) WHERE owner = \(p(2)) AND state = 'in_progress'\(skipping))
            """, arguments: [.timestamp(until), .text(owner)])
        return renewedJobs + renewedKeys
    }

    /// Rows with no lease at all were left by a version without leases: their process is gone.
    @discardableResult
    func failExpiredLeases(error: Data, now: Date, excludingOwner owner: String) throws -> (jobs: Int, reservations: Int) {
        let skipping = Dialect.rowLock(.updateSkippingLocked)
        var failed: [String] = []
        try connection.forEachRow(
            """
            UPDATE \(jobs) SET status = 'failed', error = \(p(1)), finished_at = \(p(2)), lease_expires_at = NULL WHERE id IN (
              SELECT id FROM \(jobs) WHERE status IN ('queued', 'running') AND (owner IS NULL OR owner <> \(p(3)))
                AND (lease_expires_at IS NULL OR lease_expires_at < \(p(2)))\(skipping))
            RETURNING id
            """, arguments: [.bytes(error), .timestamp(now), .text(owner)]
        ) { failed.append($0.text(0)) }
        if !failed.isEmpty {
            // The answer pointing at such a job goes: nothing was cloned, so a retry must clone.
            try connection.perform(
                """
                DELETE FROM \(idempotency) AS answer WHERE answer.location IS NOT NULL AND EXISTS (
                  SELECT 1 FROM \(jobs) AS job WHERE job.id \(Dialect.among(1))
                    AND substr(answer.location, length(answer.location) - length(job.id)) = '/' || job.id)
                """, arguments: [.texts(failed)])
        }
        let forgotten = try connection.perform(
            """
            DELETE FROM \(idempotency) WHERE key IN (
              SELECT key FROM \(idempotency) WHERE state = 'in_progress' AND (owner IS NULL OR owner <> \(p(1)))
                AND (lease_expires_at IS NULL OR lease_expires_at < \(p(2)))\(skipping))
            """, arguments: [.text(owner), .timestamp(now)])
        return (failed.count, forgotten)
    }

    /// How many rows `sql` reads (and, with a lock clause, holds).
    private func rowCount(_ sql: String, _ arguments: [SQLArgument]) throws -> Int {
        var count = 0
        try connection.forEachRow(sql, arguments: arguments) { _ in count += 1 }
        return count
    }
}
