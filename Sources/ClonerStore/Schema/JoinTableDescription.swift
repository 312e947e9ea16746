/// A join table: one row per linked pair. `src` holds the `_id` of the canonical side's entity,
/// `dst` the other's; each side that is ordered has its own position column.
public struct JoinTableDescription: Sendable, Hashable {
    public let name: String
    public let sourceEntity: String
    public let destinationEntity: String
    /// Position of `dst` within `src`'s ordered list, when the canonical side is ordered.
    public let sourcePositionColumn: String?
    /// Position of `src` within `dst`'s ordered list, when the inverse side is ordered.
    public let destinationPositionColumn: String?
    /// Whether the destination side lists its sources too (many-to-many) or the table stores an
    /// inverse-less to-many.
    public let isManyToMany: Bool
}
