/// A reference column on an entity's table.
public struct ForeignKeyDescription: Sendable, Hashable {
    /// Entity whose table holds the column.
    public let entity: String
    public let column: String
    /// Entity whose `_id` the column holds.
    public let referencedEntity: String
    /// Set when this column is the only storage of a one-to-one pair: at most one row may point at
    /// a given destination, enforced by a unique index.
    public let isUnique: Bool
    /// Position of this row within the referenced object's ordered to-many, if that side is ordered.
    public let positionColumn: String?
    /// The relationship (on `entity`) this column stores, if it is declared on this side.
    public let relationship: String?
    /// The relationship on `referencedEntity` whose destinations this column lists, if any.
    public let inverseRelationship: String?
    /// Whether the row must keep a reference (the relationship on this side is required).
    public let isRequired: Bool
}
