import ClonerModel

/// One object as the store holds it: attribute values and relationship `_id`s, faulted in together.
public struct StoredObject: Sendable, Hashable {
    public let entity: String
    public let id: Int64
    /// Row version, bumped on every change to the object — including changes to its relationships
    /// made from the other side — so it can serve as an ETag.
    public let version: Int64
    public var attributes: [String: AttributeValue]
    public var relationships: [String: RelationshipValue]

    public init(entity: String, id: Int64, version: Int64, attributes: [String: AttributeValue], relationships: [String: RelationshipValue]) {
        self.entity = entity
        self.id = id
        self.version = version
        self.attributes = attributes
        self.relationships = relationships
    }
}

/// A relationship's destinations: one `_id` or none for to-one, `_id`s in order (ordered) or by
/// `_id` (unordered) for to-many.
public enum RelationshipValue: Sendable, Hashable {
    case toOne(Int64?)
    case toMany([Int64])
}
