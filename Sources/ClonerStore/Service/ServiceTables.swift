/// Tables the service keeps beside the model's: idempotency answers and clone jobs. They live in
/// the store's database so that recording an answer commits in the same transaction as the clone
/// it describes — a retry can never see a clone without its answer, or an answer without its clone.
enum ServiceTables {
    static let idempotency = "_cloner_idempotency"
    static let jobs = "_cloner_jobs"
    /// `DELETE /jobs/{id}` for a job another replica runs: its own row is locked by the job's
    /// transaction, so the request is a row here, which the owner's lease keeper reads.
    static let jobCancellations = "_cloner_job_cancellations"
    /// Where each clone's root came from (docs/architecture.md#lineage): a row per copy, written in
    /// the clone's transaction, kept when the source goes.
    static let lineage = "_cloner_lineage"
    /// The names as the SQL written once over both backends spells them.
    static let quotedIdempotency = quoted(idempotency)
    static let quotedJobs = quoted(jobs)
    static let quotedJobCancellations = quoted(jobCancellations)
    static let quotedLineage = quoted(lineage)
}
