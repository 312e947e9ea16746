import Foundation

/// What a transaction can do with the service's own tables: idempotency keys and their answers,
/// asynchronous jobs, and the leases that let replicas take over each other's work. None of it is
/// part of the data model; the records and the clone are `StoreContext`'s.
///
/// Every backend's context answers both protocols, so a clone and the job row or the answer that
/// records it can share one transaction; code that needs only these tables (lease renewal, the
/// jobs route) asks for only this one.
public protocol ServiceTablesContext {
    /// A finished answer for `key`; nil when there is none (or only an in-progress reservation).
    func idempotencyRecord(key: String) throws -> IdempotencyRecord?
    /// Stores the final answer for `record.key`, ending its reservation (if any).
    func saveIdempotencyRecord(_ record: IdempotencyRecord) throws
    /// Reserves `key` for `owner` until `leaseExpiresAt`, insert-if-absent; takes over an
    /// in-progress reservation whose lease ended before `now`. Run it in a transaction of its own.
    func reserveIdempotencyKey(_ key: String, fingerprint: String, owner: String, leaseExpiresAt: Date, now: Date) throws -> IdempotencyClaim
    /// What `reserveIdempotencyKey` would find, read without writing (a read transaction may
    /// ask): nil when the key is free or its reservation's lease ended before `now`.
    func peekIdempotencyKey(_ key: String, now: Date) throws -> IdempotencyClaim?
    /// Deletes `owner`'s in-progress reservation of `key` (its request failed); a finished answer stays.
    func releaseIdempotencyKey(_ key: String, owner: String) throws
    /// Checks that `owner` still holds the in-progress reservation of `key` and, on PostgreSQL,
    /// locks its row until this transaction ends (so lease renewal and expiry scans skip it
    /// while the clone that holds it runs). False when it was lost.
    func holdIdempotencyReservation(_ key: String, owner: String) throws -> Bool
    /// As `holdIdempotencyReservation`, for a queued or running job row owned by `owner`.
    func holdJob(id: String, owner: String) throws -> Bool
    /// Marks `owner`'s queued job `id` running, in a transaction of its own before the clone's: so
    /// `GET /jobs/{id}` on any replica says `running`, not `queued`, while the clone runs. False
    /// when the row is no longer `owner`'s queued job.
    @discardableResult func markJobRunning(id: String, owner: String) throws -> Bool
    /// Extends the leases of `owner`'s queued or running jobs and in-progress reservations to
    /// `until`: one UPDATE per table, whatever their number; rows a running clone holds locked
    /// are skipped (their owner is evidently alive). Returns how many rows it extended.
    @discardableResult func renewLeases(owner: String, until: Date) throws -> Int
    /// Marks failed (with `error`) every queued or running job whose lease ended before `now`,
    /// forgets in-progress reservations whose lease ended and answers pointing at those jobs —
    /// all but `owner`'s own (the calling replica is alive). Returns (jobs, reservations).
    @discardableResult func failExpiredLeases(error: Data, now: Date, excludingOwner owner: String) throws -> (jobs: Int, reservations: Int)
    /// Forgets answers older than `date`; returns how many.
    @discardableResult func purgeIdempotencyRecords(olderThan date: Date) throws -> Int
    func saveJob(_ job: JobRecord) throws
    func job(id: String) throws -> JobRecord?
    /// Forgets finished jobs older than `date`; returns how many.
    @discardableResult func purgeJobs(finishedBefore date: Date) throws -> Int

    // MARK: jobs a user can see, watch and stop

    /// Up to `limit` jobs, newest first (by `created_at`, then `id`), with `status` when given,
    /// after `position` when given (the last job of the previous page): one query per page.
    func jobs(status: JobStatus?, after position: JobListPosition?, limit: Int) throws -> [JobRecord]
    /// Marks queued or running job `id` cancelled (it rolled back, or never ran) and forgets the
    /// `Idempotency-Key` answer pointing at it, so a retry with that key runs again. False when
    /// the row was no longer queued or running.
    @discardableResult func cancelJob(id: String, error: Data?, now: Date) throws -> Bool
    /// Marks queued or running job `id` failed with `error`, keeping when it was made; false when
    /// it had already finished (its work committed after all). `releasingKey`: the key that
    /// started it runs again on a retry (the work was lost with its database, not refused).
    @discardableResult func failJob(id: String, error: Data, now: Date, releasingKey: Bool) throws -> Bool
    /// What stops the statement this transaction's connection runs, from another thread, while
    /// the transaction is open: `sqlite3_interrupt`, libpq's `PQcancel`.
    func statementInterrupter() -> any StatementInterrupter
    /// Records a cancel of queued or running job `id` for the replica that runs it (whose
    /// transaction holds the job's row locked); false when the job is no longer queued or running.
    @discardableResult func requestJobCancellation(id: String, now: Date) throws -> Bool
    /// The queued or running jobs of `owner` a cancel was requested for.
    func requestedJobCancellations(owner: String) throws -> [String]
}
