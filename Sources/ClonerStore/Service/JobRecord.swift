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

    public init(id: String, status: JobStatus, request: Data, result: Data? = nil, error: Data? = nil, createdAt: Date = Date(), finishedAt: Date? = nil) {
        self.id = id
        self.status = status
        self.request = request
        self.result = result
        self.error = error
        self.createdAt = createdAt
        self.finishedAt = finishedAt
    }
}
