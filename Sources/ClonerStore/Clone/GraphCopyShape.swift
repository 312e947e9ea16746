import ClonerModel

/// What of a plan a backend's clone SQL depends on: the root entity, what is owned, excluded and
/// ruled, the names (not the values) the root's `set` and links give and which of them some
/// copies leave out, the number of copies and the object limit (the walk stops one row past it).
/// The root's id and every value are parameters, so each clone of the same kind shares one set of
/// statements, built once per connection (`GraphCopyShape.cachedLimit`).
struct GraphCopyShape: Hashable {
    let rootEntity: String
    let ownedRelationships: Set<String>
    let excludedEverywhere: Set<String>
    let excludedAtRoot: Set<String>
    let rootSetNames: Set<String>
    /// Names set on the root of some copies but not all of them.
    let partlySetNames: Set<String>
    let rootLinkNames: Set<String>
    let attributeRules: [String: AttributeCopyRule]
    let copies: Int
    let maximumObjects: Int

    init(_ plan: GraphCopyPlan) {
        rootEntity = plan.rootEntity
        ownedRelationships = plan.ownedRelationships
        excludedEverywhere = plan.excludedEverywhere
        excludedAtRoot = plan.excludedAtRoot
        let perCopyNames = plan.perCopyRootValues.flatMap(\.keys)
        rootSetNames = Set(plan.rootValues.keys).union(perCopyNames)
        partlySetNames =
            plan.perCopyRootValues.isEmpty
            ? []
            : rootSetNames.filter { name in plan.rootValues[name] == nil && plan.perCopyRootValues.contains { $0[name] == nil } }
        rootLinkNames = Set(plan.rootLinks.keys)
        attributeRules = plan.attributeRules
        copies = plan.copies
        maximumObjects = plan.maximumObjects
    }

    /// Shapes a connection keeps the SQL of; past this, its cache starts over (a client sending
    /// ever new `exclude` lists must not grow it without bound).
    static let cachedLimit = 64
}

extension Dictionary where Key == GraphCopyShape {
    /// The cached value for `plan`'s shape, made by `make` when missing; the cache starts over
    /// once it holds `GraphCopyShape.cachedLimit` shapes.
    mutating func cached(for plan: GraphCopyPlan, make: () -> Value) -> Value {
        let shape = GraphCopyShape(plan)
        if let value = self[shape] { return value }
        let value = make()
        if count >= GraphCopyShape.cachedLimit { removeAll() }
        self[shape] = value
        return value
    }
}
