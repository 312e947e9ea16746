import ClonerModel

/// A clone's bulk copy in model terms: which object to copy, which relationships a copy owns,
/// what is left out and how each attribute gets its value. Built by the clone layer from the
/// model's clone rules and the request; each backend's copier turns it into its own SQL. It names
/// entities, attributes and relationships only — no table, column or SQL.
public struct GraphCopyPlan: Sendable {
    public var rootEntity: String
    public var rootID: Int64
    /// Relationships a copy owns (their destinations are copied), as qualified names
    /// "Entity.relationship". Every other relationship is shared: a copy links to the same
    /// destinations — re-pointed to the clone when the destination is itself in the clone set
    /// (relationship rule 4, docs/architecture.md#identity-and-cycles).
    public var ownedRelationships: Set<String>
    /// Properties left out for every object of their entity ("Item.tags", "Note.shareLink"): an
    /// excluded relationship is neither walked nor carried; an excluded attribute takes `.blank`.
    public var excludedEverywhere: Set<String>
    /// Properties of the root left out for the root object only (bare names).
    public var excludedAtRoot: Set<String>
    /// Root values that override every rule: attributes (any value, `.null` included) and to-one
    /// relationships stored on the root (`.integer(id)` links an existing object, `.null` none).
    /// A relationship set here is not walked from the root (relationship rule 8, docs/architecture.md#set-on-the-root).
    public var rootValues: [String: AttributeValue]
    /// Root to-many relationships replaced by these existing objects, in order; not walked from
    /// the root either.
    public var rootLinks: [String: [Int64]]
    /// For a part of an ordered to-many declared into an inheritance hierarchy, by its name: each
    /// of its `rootLinks` ids' place in the whole declared list, which the store fills in when it
    /// splits the list (`resolvingHierarchyFields`); any other list's places are its own indices.
    var rootLinkPlaces: [String: [Int64]] = [:]
    /// How each attribute of a copy gets its value, by qualified name; absent means `.copy`.
    public var attributeRules: [String: AttributeCopyRule]
    /// Plan and count only; write nothing.
    public var dryRun: Bool
    /// Report the old → new `_id` map per entity.
    public var returnIDs: Bool
    /// Refuse (before writing anything) a copy of more objects than this.
    public var maximumObjects: Int
    /// The object limit of a clone unless configured otherwise (`maxObjectsPerClone`): the one
    /// definition the clone request and the service's configuration take theirs from.
    public static let defaultMaximumObjects = 1_000_000
    /// How many copies of the root (1 = a normal clone; docs/architecture.md#many-copies), each a full clone with its
    /// own identity map, all in one transaction; `maximumObjects` counts all copies together. A
    /// unique violation in a plan of more than one copy (or with per-copy values) is thrown as
    /// `StoreError.inCopy(index:error:)` naming the first copy that repeats a value.
    public var copies: Int
    /// Per copy (when non-empty, exactly `copies` entries): values merged over `rootValues` for that
    /// copy. A relationship named here is named for every copy (the clone layer checks it), so the
    /// walk is the same for all copies; a missing link is `StoreError.missingRootLink` naming copy k.
    public var perCopyRootValues: [[String: AttributeValue]]

    public init(
        rootEntity: String, rootID: Int64, ownedRelationships: Set<String>, excludedEverywhere: Set<String> = [],
        excludedAtRoot: Set<String> = [], rootValues: [String: AttributeValue] = [:], rootLinks: [String: [Int64]] = [:],
        attributeRules: [String: AttributeCopyRule] = [:], dryRun: Bool = false, returnIDs: Bool = false,
        maximumObjects: Int = GraphCopyPlan.defaultMaximumObjects, copies: Int = 1, perCopyRootValues: [[String: AttributeValue]] = []
    ) {
        self.rootEntity = rootEntity
        self.rootID = rootID
        self.ownedRelationships = ownedRelationships
        self.excludedEverywhere = excludedEverywhere
        self.excludedAtRoot = excludedAtRoot
        self.rootValues = rootValues
        self.rootLinks = rootLinks
        self.attributeRules = attributeRules
        self.dryRun = dryRun
        self.returnIDs = returnIDs
        self.maximumObjects = maximumObjects
        self.copies = copies
        self.perCopyRootValues = perCopyRootValues
    }

    public func isOwned(_ relationship: RelationshipDescription) -> Bool {
        ownedRelationships.contains(relationship.qualifiedName)
    }

    public func isExcludedEverywhere(_ entity: String, _ property: String) -> Bool {
        excludedEverywhere.contains("\(entity).\(property)")
    }

    /// The rule for one attribute (`.copy` unless the plan says otherwise).
    public func rule(for entity: String, _ attribute: String) -> AttributeCopyRule {
        attributeRules["\(entity).\(attribute)"] ?? .copy
    }
}
