import ClonerModel

/// The optional body of `POST /{collection}/{id}/clone` (DESIGN.md §4), checked against the model:
/// every `exclude` entry names a property, every `set` entry an attribute of the root entity with a
/// value of its type. Built by `CloneRequest.decode(...)` (in `CloneRequest+JSON.swift`).
public struct CloneRequest: Sendable, Hashable {
    /// One `exclude` entry, resolved to where it applies (DESIGN.md §3, relationship rule 6).
    public struct Exclusion: Sendable, Hashable {
        /// The entity the property belongs to: the root entity for a bare name.
        public var entity: String
        public var property: String
        /// Whether the entry was qualified (`Item.tags`), i.e. applies wherever that entity occurs,
        /// or bare (`data`), i.e. applies to the root object only.
        public var isQualified: Bool

        public init(entity: String, property: String, isQualified: Bool) {
            self.entity = entity
            self.property = property
            self.isQualified = isQualified
        }
    }

    public var exclusions: [Exclusion]
    /// Values for the root's clone by attribute name; they override every clone rule.
    public var set: [String: AttributeValue]
    /// Links for the root's clone by relationship name (`_id`s of existing objects), e.g. to clone
    /// a note into another folder; they replace what the clone rules would link or copy there.
    public var setRelationships: [String: RelationshipIDs]
    /// Plan and count only; nothing is written.
    public var dryRun: Bool
    /// Include the old → new `_id` map in the answer.
    public var returnIds: Bool

    public init(
        exclusions: [Exclusion] = [], set: [String: AttributeValue] = [:], setRelationships: [String: RelationshipIDs] = [:],
        dryRun: Bool = false, returnIds: Bool = false
    ) {
        self.exclusions = exclusions
        self.set = set
        self.setRelationships = setRelationships
        self.dryRun = dryRun
        self.returnIds = returnIds
    }

    /// Whether `property` of `entity` is excluded for an object of that entity; `isRoot` tells
    /// whether the object is the clone's root (bare entries apply to it only).
    public func excludes(entity: String, property: String, isRoot: Bool) -> Bool {
        exclusions.contains { $0.entity == entity && $0.property == property && ($0.isQualified || isRoot) }
    }
}
