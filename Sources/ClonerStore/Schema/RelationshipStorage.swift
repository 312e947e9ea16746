/// Where the store keeps one relationship. Each inverse pair is stored exactly once, so both sides
/// always agree: an inverse can never go stale because there is nothing to update twice.
public enum RelationshipStorage: Sendable, Hashable {
    /// A column on the source's own table holding the destination's `_id`
    /// (to-one with a to-many inverse, to-one without inverse, the owning side of a one-to-one).
    case foreignKeyOnSource(column: String)
    /// A column on the destination's table holding the source's `_id` (to-many with a to-one
    /// inverse, the other side of a one-to-one). `positionColumn` orders the destinations when the
    /// relationship is ordered.
    case foreignKeyOnDestination(column: String, positionColumn: String?)
    /// A join table (many-to-many, to-many without inverse). `positionColumn` orders the
    /// destinations within one source when this side is ordered.
    case joinTable(table: String, sourceColumn: String, destinationColumn: String, positionColumn: String?)
}
