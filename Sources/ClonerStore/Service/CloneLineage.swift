import Foundation

/// One clone's origin, as the store keeps it (docs/architecture.md#lineage): the root of a copy,
/// the object it was copied from (of the same entity: a clone's root is always its source's
/// entity), and when. Written in the clone's own transaction; kept when the source is deleted (its
/// id then names nothing), removed with the clone.
public struct CloneLineage: Sendable, Hashable {
    public var entity: String
    public var cloneID: Int64
    public var sourceID: Int64
    public var createdAt: Date

    public init(entity: String, cloneID: Int64, sourceID: Int64, createdAt: Date) {
        self.entity = entity
        self.cloneID = cloneID
        self.sourceID = sourceID
        self.createdAt = createdAt
    }

    /// `createdAt` to the millisecond, as stored.
    public var createdAtMilliseconds: Int64 { SQLArgument.milliseconds(createdAt) }
}
