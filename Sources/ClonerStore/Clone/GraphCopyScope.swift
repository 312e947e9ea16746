import ClonerModel

/// What every backend's graph copy SQL starts from, derived from the plan and the schema alone:
/// the root, the properties the root does not carry, and the entities the walk can reach.
struct GraphCopyScope {
    let root: EntityDescription
    let rootTag: Int
    /// Root properties not walked or carried for the root: its exclusions, and the to-manys
    /// `rootLinks` replaces (rule 8).
    let rootExclusions: Set<String>
    /// Every relationship of the model by qualified name, numbered in model order: the walk's `via`.
    let relationshipIndex: [String: Int]
    /// The entities the walk can reach from the root through followed relationships.
    let reachable: Set<String>
    /// The reachable entities in model order, the order they are mapped and inserted in.
    let entities: [EntityDescription]

    init(plan: GraphCopyPlan, schema: StoreSchema) {
        guard let root = schema.model.entity(named: plan.rootEntity) else { preconditionFailure("unknown entity \(plan.rootEntity)") }
        self.root = root
        rootTag = schema.entityTag(root.name)
        rootExclusions = plan.excludedAtRoot.union(plan.rootLinks.keys)
        var index: [String: Int] = [:]
        for relationship in schema.model.entities.flatMap(\.relationships) { index[relationship.qualifiedName] = index.count }
        relationshipIndex = index
        var seen: Set<String> = [root.name]
        var queue = [root.name]
        while let name = queue.popLast() {
            for relationship in schema.model.entity(named: name)!.relationships where Self.isFollowed(relationship, plan: plan) {
                if seen.insert(relationship.destination).inserted { queue.append(relationship.destination) }
            }
        }
        reachable = seen
        entities = schema.model.entities.filter { seen.contains($0.name) }
    }

    /// Owned relationships not excluded for a whole entity: the edges a walk may take.
    static func isFollowed(_ relationship: RelationshipDescription, plan: GraphCopyPlan) -> Bool {
        plan.isOwned(relationship) && !plan.isExcludedEverywhere(relationship.source, relationship.name)
    }
}
