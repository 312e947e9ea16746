import ClonerModel

/// A set of edits saved in one transaction: all of them, or none.
public struct ChangeSet: Sendable {
    /// Points at an object that exists, or at one inserted by the same change set (by its index
    /// in `inserts`), so a nested graph can be created in one save.
    public enum Reference: Sendable, Hashable {
        case existing(Int64)
        case inserted(Int)
    }

    public enum RelationshipEdit: Sendable, Hashable {
        case toOne(Reference?)
        /// The complete new list of destinations, in order for an ordered relationship.
        case toMany([Reference])
    }

    /// Per ordered to-many *part* of a field declared into an inheritance hierarchy (by the
    /// part's name), the place of each of its listed references in the declared list: the parts
    /// of `Blog.posts` store one order across the concrete entities, so each part's rows carry
    /// their index in the whole list rather than in their part
    /// (docs/architecture.md#relationships-into-a-hierarchy). A to-many edit without an entry
    /// numbers its list from 0.
    public typealias ListPlaces = [String: [Int64]]

    public struct Insert: Sendable {
        public var entity: String
        /// Attributes not given get their default, else null (an error if required).
        public var attributes: [String: AttributeValue]
        public var relationships: [String: RelationshipEdit]
        public var places: ListPlaces = [:]
        public init(entity: String, attributes: [String: AttributeValue] = [:], relationships: [String: RelationshipEdit] = [:]) {
            self.entity = entity
            self.attributes = attributes
            self.relationships = relationships
        }
    }

    public struct Update: Sendable {
        public var entity: String
        public var id: Int64
        /// Optimistic concurrency: the save fails if the object is no longer at this version.
        public var expectedVersion: Int64?
        public var attributes: [String: AttributeValue]
        public var relationships: [String: RelationshipEdit]
        public var places: ListPlaces = [:]
        public init(
            entity: String, id: Int64, expectedVersion: Int64? = nil, attributes: [String: AttributeValue] = [:],
            relationships: [String: RelationshipEdit] = [:]
        ) {
            self.entity = entity
            self.id = id
            self.expectedVersion = expectedVersion
            self.attributes = attributes
            self.relationships = relationships
        }
    }

    public struct Delete: Sendable {
        public var entity: String
        public var id: Int64
        public var expectedVersion: Int64?
        public init(entity: String, id: Int64, expectedVersion: Int64? = nil) {
            self.entity = entity
            self.id = id
            self.expectedVersion = expectedVersion
        }
    }

    public var inserts: [Insert]
    public var updates: [Update]
    public var deletes: [Delete]

    public init(inserts: [Insert] = [], updates: [Update] = [], deletes: [Delete] = []) {
        self.inserts = inserts
        self.updates = updates
        self.deletes = deletes
    }
}

/// What a save made.
public struct SaveResult: Sendable, Hashable {
    /// The `_id` of each insert, in the order of `ChangeSet.inserts`.
    public var insertedIDs: [Int64]
    /// Objects removed by the deletes, their cascades included, per entity.
    public var deletedCounts: [String: Int]
}
