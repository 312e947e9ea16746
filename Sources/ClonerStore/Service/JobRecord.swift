import Foundation

/// A clone job as persisted: enough to answer `GET /jobs/{id}` after the process that ran it is
/// gone. `result` and `error` are the service's JSON, opaque to the store.
public struct JobRecord: Sendable, Hashable {
    public var id: String
    public var status: JobStatus
    public var request: Data
    public var result: Data?
    public var error: Data?
    public var createdAt: Date
    public var finishedAt: Date?
    /// The replica running the job (its process's replica id), and until when its lease holds:
    /// the owner renews it while the job is queued or running; once it has run out, any replica
    /// marks the job failed (docs/architecture.md#replicas). Nil on rows written by a version without leases.
    public var owner: String?
    public var leaseExpiresAt: Date?

    public init(
        id: String, status: JobStatus, request: Data, result: Data? = nil, error: Data? = nil, createdAt: Date = Date(), finishedAt: Date? = nil,
        owner: String? = nil, leaseExpiresAt: Date? = nil
    ) {
        self.id = id
        self.status = status
        self.request = request
        self.result = result
        self.error = error
        self.createdAt = createdAt
        self.finishedAt = finishedAt
        self.owner = owner
        self.leaseExpiresAt = leaseExpiresAt
    }
}
