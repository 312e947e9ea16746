import Foundation

/// Where a page of `GET /{collection}/{id}/clones` ends: the last clone's creation time (to the
/// millisecond, as stored) and `_id`, so the next page starts exactly after it however many
/// clones were made meanwhile (newer ones sort before the page, never into it).
public struct CloneListPosition: Sendable, Hashable {
    public var createdAtMilliseconds: Int64
    public var cloneID: Int64

    public init(createdAtMilliseconds: Int64, cloneID: Int64) {
        self.createdAtMilliseconds = createdAtMilliseconds
        self.cloneID = cloneID
    }

    /// The position just after `clone`, as its row stores its creation time.
    public init(after clone: CloneLineage) {
        self.init(createdAtMilliseconds: clone.createdAtMilliseconds, cloneID: clone.cloneID)
    }
}
