import ClonerModel

extension SQLiteGraphCopySQL {
    /// What of a plan its SQL depends on: the root entity, what is owned, excluded and ruled, and
    /// the names (not the values) the root's `set` and links give, and whether there are many
    /// copies (they read staged source rows). The root's id, its values, the number of copies and
    /// the flags are parameters or the copier's business, so every clone of the same kind shares
    /// one SQL.
    struct Shape: Hashable {
        let rootEntity: String
        let ownedRelationships: Set<String>
        let excludedEverywhere: Set<String>
        let excludedAtRoot: Set<String>
        let rootSetNames: Set<String>
        let rootLinkNames: Set<String>
        let attributeRules: [String: AttributeCopyRule]
        let staged: Bool

        init(_ plan: GraphCopyPlan) {
            rootEntity = plan.rootEntity
            ownedRelationships = plan.ownedRelationships
            excludedEverywhere = plan.excludedEverywhere
            excludedAtRoot = plan.excludedAtRoot
            rootSetNames = Set(plan.rootValues.keys).union(plan.perCopyRootValues.flatMap(\.keys))
            rootLinkNames = Set(plan.rootLinks.keys)
            attributeRules = plan.attributeRules
            staged = plan.copies > 1
        }
    }

    /// Shapes a connection keeps the SQL of; past this, the cache starts over (a client sending
    /// ever new `exclude` lists must not grow it without bound).
    static let cachedShapesLimit = 64

    /// The SQL for `plan`, built once per connection and plan shape: building it walks the whole
    /// model and writes a few dozen statements, which costs more than running them on a small
    /// graph. The connection's statement cache then finds them prepared.
    static func cached(plan: GraphCopyPlan, schema: StoreSchema, connection: SQLiteConnection) -> SQLiteGraphCopySQL {
        let shape = Shape(plan)
        if let sql = connection.graphCopySQL[shape] { return sql }
        let sql = SQLiteGraphCopySQL(plan: plan, schema: schema)
        if connection.graphCopySQL.count >= cachedShapesLimit { connection.graphCopySQL.removeAll() }
        connection.graphCopySQL[shape] = sql
        return sql
    }
}
