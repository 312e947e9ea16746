/// The clone rules of one relationship, parsed from its `userInfo` (docs/architecture.md#relationship-rules).
public struct RelationshipCloneRule: Sendable, Hashable {
    public enum Ownership: String, Sendable, Hashable, CaseIterable {
        /// The destinations are copied with the source.
        case copy
        /// The clone links to the same destinations.
        case share
    }

    public var isExcluded: Bool
    /// An explicit `clone: share|copy`; nil means the default derived from the inverse's cardinality.
    public var ownershipOverride: Ownership?

    public init(isExcluded: Bool = false, ownershipOverride: Ownership? = nil) {
        self.isExcluded = isExcluded
        self.ownershipOverride = ownershipOverride
    }

    public static let `default` = RelationshipCloneRule()
}
