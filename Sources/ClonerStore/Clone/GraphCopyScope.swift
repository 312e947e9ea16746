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
    /// The reachable entities in the order they are mapped and inserted in (`referencesFirst`).
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
        entities = Self.referencesFirst(schema.model.entities.filter { seen.contains($0.name) }, schema: schema)
    }

    /// `entities` (in model order), each after the entities its reference columns point at,
    /// where the references allow: entities that point at each other, round a cycle, are placed
    /// from the first in model order.
    ///
    /// SQLite checks a deferred foreign key as each row is written. A row whose referenced row is
    /// not there yet is counted as a violation until that row comes, and while any is counted,
    /// every row written to a referenced table looks up the rows that reference it. Written in
    /// model order, the sample model's item data came before the memos they point at, and every
    /// memo written looked up its item data.
    static func referencesFirst(_ entities: [EntityDescription], schema: StoreSchema) -> [EntityDescription] {
        var pending = entities
        var ordered: [EntityDescription] = []
        // The other pending entities `name`'s reference columns point at.
        func waitsFor(_ name: String) -> Set<String> {
            let others = Set(pending.map(\.name)).subtracting([name])
            return Set((schema.foreignKeys[name] ?? []).map(\.referencedEntity)).intersection(others)
        }
        // Whether `name` points, through pending entities, back at itself.
        func inCycle(_ name: String) -> Bool {
            var seen: Set<String> = []
            var queue = Array(waitsFor(name))
            while let next = queue.popLast() {
                if next == name { return true }
                if seen.insert(next).inserted { queue += waitsFor(next) }
            }
            return false
        }
        while !pending.isEmpty {
            let next =
                pending.firstIndex { waitsFor($0.name).isEmpty } ?? pending.firstIndex { inCycle($0.name) } ?? 0
            ordered.append(pending.remove(at: next))
        }
        return ordered
    }

    /// Owned relationships not excluded for a whole entity: the edges a walk may take.
    static func isFollowed(_ relationship: RelationshipDescription, plan: GraphCopyPlan) -> Bool {
        plan.isOwned(relationship) && !plan.isExcludedEverywhere(relationship.source, relationship.name)
    }
}
