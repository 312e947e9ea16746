/// Where a clone job is, shared by the running job (`CloneJob.status`) and its persisted row
/// (`JobRecord.status`), so the two can never spell a state differently.
public enum JobStatus: String, Sendable, Hashable, Codable, CaseIterable {
    case queued, running, succeeded, failed

    public var isFinished: Bool { self == .succeeded || self == .failed }
}
