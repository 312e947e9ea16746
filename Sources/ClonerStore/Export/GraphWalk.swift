import ClonerModel

/// The objects a clone of one root would copy, found the way the copier's walk finds them
/// (docs/architecture.md#the-path-of-a-clone-request, step 1): through owned relationships that
/// are not excluded, never back through the exact edge of arrival, each object once. Kept as
/// `_id`s only — a few bytes per object — so an export can hold the whole walk while it reads the
/// objects themselves a batch at a time.
///
/// `objects` is in breadth-first order of first arrival, so an object's parent (the object whose
/// owned relationship reached it first) always comes before it: owners before what they own.
public struct GraphWalk: Sendable {
    public struct Object: Sendable, Hashable {
        /// The entity's index in the model (`StoreSchema.entityTag`).
        public var entity: Int
        public var id: Int64
        /// The parent's entity index and `_id`, or nil for the root.
        public var parentEntity: Int?
        public var parentID: Int64?
    }

    public private(set) var objects: [Object] = []
    /// The walked `_id`s by entity index.
    @usableFromInline private(set) var members: [GraphIDSet] = []

    /// Whether the walk reached `id` of the entity at index `entity` (inlinable: the export asks
    /// for every link it writes).
    @inlinable
    public func contains(entity: Int, id: Int64) -> Bool { entity < members.count && members[entity].contains(id) }

    /// Entity indices of every walked object.
    public var entities: Set<Int> { Set(members.indices.filter { members[$0].count > 0 }) }

    /// An arrival: the object, and the parent it came from (nil for the root).
    struct Arrival {
        var id: Int64
        var parentEntity: Int? = nil
        var parentID: Int64? = nil
    }

    /// Arrivals at one entity through one relationship (its index; nil for the root): the edge
    /// rule 2 keeps the walk from taking back.
    struct Group: Hashable {
        var entity: Int
        var via: Int?
    }

    mutating func add(_ object: Object) -> Bool {
        if object.entity >= members.count { members.append(contentsOf: repeatElement(GraphIDSet(), count: object.entity + 1 - members.count)) }
        guard members[object.entity].insert(object.id) else { return false }
        objects.append(object)
        return true
    }
}

extension StoreContext {
    /// Walks what a clone of `plan.rootEntity` `plan.rootID` would copy, with `plan`'s owned
    /// relationships and exclusions: per level, one `destinationIDs` query per followed
    /// relationship and batch of `batchSize` sources (`readDestinations`) — the queries grow with
    /// the model and the depth, never one per object. Built on `StoreContext` alone, so every
    /// backend walks alike.
    /// Throws `StoreError.notFound` for a missing root, `.tooLarge` past `plan.maximumObjects`.
    public func walkGraph(_ plan: GraphCopyPlan, batchSize: Int = 1000) throws -> GraphWalk {
        precondition(batchSize > 0, "a walk in batches of \(batchSize)")
        let model = schema.model
        guard let root = model.entity(named: plan.rootEntity) else { preconditionFailure("unknown entity \(plan.rootEntity)") }
        guard try version(entity: root.name, id: plan.rootID) != nil else {
            throw StoreError.notFound(entity: root.name, id: plan.rootID)
        }
        var relationships: [RelationshipDescription] = []
        var relationshipIndex: [String: Int] = [:]
        for relationship in model.entities.flatMap(\.relationships) {
            relationshipIndex[relationship.qualifiedName] = relationships.count
            relationships.append(relationship)
        }
        typealias Arrival = GraphWalk.Arrival
        typealias Group = GraphWalk.Group
        var walk = GraphWalk()
        let rootTag = schema.entityTag(root.name)
        _ = walk.add(GraphWalk.Object(entity: rootTag, id: plan.rootID, parentEntity: nil, parentID: nil))
        // Arrivals seen, per (entity, via): an object reached again through the same relationship
        // goes no further, as the copier's `UNION` ends cycles. A set per group in `seenSets`,
        // found once per relationship followed, not per arrival.
        var seen: [Group: Int] = [Group(entity: rootTag, via: nil): 0]
        var seenSets = [GraphIDSet()]
        seenSets[0].insert(plan.rootID)
        var lists = GraphDestinations()
        var frontier: [(group: Group, arrivals: [Arrival])] = [(Group(entity: rootTag, via: nil), [Arrival(id: plan.rootID)])]
        while !frontier.isEmpty {
            var next: [(group: Group, arrivals: [Arrival])] = []
            var nextIndex: [Group: Int] = [:]
            for (group, arrivals) in frontier {
                let entity = model.entities[group.entity]
                let arrivedVia = group.via.map { relationships[$0] }
                for relationship in entity.relationships {
                    guard plan.isOwned(relationship), !plan.isExcludedEverywhere(entity.name, relationship.name) else { continue }
                    if group.via == nil && group.entity == rootTag && plan.excludedAtRoot.contains(relationship.name) { continue }
                    // Rule 2 (docs/architecture.md#relationship-rules): not back through the edge of arrival.
                    if let arrivedVia, !relationship.isSelfInverse, arrivedVia.inverseName == relationship.name,
                        arrivedVia.destination == entity.name, relationship.destination == arrivedVia.source
                    {
                        continue
                    }
                    let destinationTag = schema.entityTag(relationship.destination)
                    let via = relationshipIndex[relationship.qualifiedName]!
                    let target = Group(entity: destinationTag, via: via)
                    let seenIndex = entry(for: target, in: &seen, of: &seenSets) { GraphIDSet() }
                    // The group the destinations join in the next level: looked up once the first
                    // one arrives (a group with no arrivals is never made), then kept.
                    var position: Int?
                    var start = 0
                    while start < arrivals.count {
                        let batch = arrivals[start..<min(arrivals.count, start + batchSize)]
                        start += batchSize
                        try readDestinations(of: relationship, for: batch.map(\.id), into: &lists)
                        for (offset, arrival) in batch.enumerated() {
                            for destination in lists.destinations(of: offset) {
                                if relationship.isSelfInverse, arrivedVia?.qualifiedName == relationship.qualifiedName,
                                    destination == arrival.parentID
                                {
                                    continue
                                }
                                guard seenSets[seenIndex].insert(destination) else { continue }
                                if walk.add(GraphWalk.Object(entity: destinationTag, id: destination, parentEntity: group.entity, parentID: arrival.id)),
                                    walk.objects.count > plan.maximumObjects
                                {
                                    throw StoreError.tooLarge(objects: walk.objects.count, limit: plan.maximumObjects)
                                }
                                let at = position ?? entry(for: target, in: &nextIndex, of: &next) { (target, []) }
                                position = at
                                next[at].arrivals.append(Arrival(id: destination, parentEntity: group.entity, parentID: arrival.id))
                            }
                        }
                    }
                }
            }
            frontier = next
        }
        return walk
    }
}

/// The index of `group`'s entry in `entries`, appending one made by `make` the first time.
private func entry<Entry>(
    for group: GraphWalk.Group, in indexes: inout [GraphWalk.Group: Int], of entries: inout [Entry], make: () -> Entry
) -> Int {
    if let known = indexes[group] { return known }
    indexes[group] = entries.count
    entries.append(make())
    return entries.count - 1
}
