/// Where a clone job is, shared by the running job (`CloneJob.status`) and its persisted row
/// (`JobRecord.status`), so the two can never spell a state differently.
public enum JobStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// `cancelled`: stopped by `DELETE /jobs/{id}` before its transaction committed; nothing of it
    /// was written. The column has no CHECK constraint, so stores made before it hold it as they are.
    case queued, running, succeeded, failed, cancelled

    public var isFinished: Bool { self == .succeeded || self == .failed || self == .cancelled }
}
