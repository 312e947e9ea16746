import Foundation

/// Where a page of `GET /jobs` ends: the last job's creation time (to the millisecond, as stored)
/// and id, so the next page starts exactly after it however many jobs were added meanwhile.
public struct JobListPosition: Sendable, Hashable {
    public var createdAtMilliseconds: Int64
    public var id: String

    public init(createdAtMilliseconds: Int64, id: String) {
        self.createdAtMilliseconds = createdAtMilliseconds
        self.id = id
    }

    /// The position just after `job`, as its row stores its creation time.
    public init(after job: JobRecord) {
        self.init(createdAtMilliseconds: SQLArgument.milliseconds(job.createdAt), id: job.id)
    }
}
