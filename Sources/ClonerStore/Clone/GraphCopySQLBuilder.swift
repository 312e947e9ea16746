import ClonerModel

/// The SQL of a graph copy that is the same on every backend, written once: which relationships
/// the walk follows, what each copied attribute and reference becomes (the attribute rules,
/// rules 4 and 7, the root's exclusions and `set`), the rows' INSERT … SELECT per entity, the
/// shared objects the copies link, the join tables' rows and the order of the `followParent`
/// updates. Adding a clone rule means changing these extensions.
///
/// Each backend's builder (`SQLiteGraphCopySQL`, `PostgreSQLGraphCopySQL`) conforms, its
/// spellings in its `Dialect`, and answers only what it decides differently: how a copy's root
/// reads the values its `set` gives it, where the source rows are read from, the order rows are
/// inserted in, how a self-following value is pushed down a chain. The edges the walk may take,
/// the rules that stop it and the probe of a large root are written once too (`walkEdges`,
/// `walkConditions`, `rootWaysProbe`); each keeps its own walk statements and map fill (SQLite's
/// levels and staging tables, PostgreSQL's recursion, locks and pipelining).
///
/// Row aliases used throughout: `m` is the object's map row (`cp`, the copy number, `old`, `new`,
/// `pent`, `pold`, `pnew`), `o` the original row. The root is the only object without a parent,
/// so `m.pold IS NULL` is how a statement tells a copy's root apart.
protocol GraphCopySQLBuilder {
    /// The table that holds the map rows of entity `tag`'s copies.
    static func mapTable(of tag: Int) -> String
    /// Whether a map table holds several entities' rows, told apart by `ent`; false where each
    /// entity has a table of its own (`mapRows`, `mapOf` and `mapKey` spell either).
    static var mapNamesEntities: Bool { get }
    var schema: StoreSchema { get }
    var plan: GraphCopyPlan { get }
    /// The root and the entities the walk can reach.
    var scope: GraphCopyScope { get }
    /// `followParent` attributes (qualified names) the INSERT writes itself (`inlinableFollows`).
    var inlineFollows: Set<String> { get }

    // MARK: What the backend decides its own way

    /// The backend's spellings (`SQLDialect`'s graph copy section).
    associatedtype Dialect: SQLDialect
    /// The clone's time, as the backend passes it: a parameter.
    static var cloneTime: String { get }
    /// True for the map row `alias` of a copy's root whose copy `set`s `property` of `entity`;
    /// nil when no copy sets it.
    func setAtRoot(_ entity: String, _ property: String, alias: String) -> String?
    /// The condition that keeps the walk's arrival row `arrival` from taking `property` of
    /// `entity` from a copy's root whose copy `set`s it (rule 8); nil when no copy sets it.
    func walkSkipsFromRoot(_ entity: String, _ property: String, arrival: String) -> String?
    /// The `_id` a copy's root (map row `alias`) links through to-one `property` by `set`.
    func rootSetReference(_ property: String, alias: String) -> String
    /// An attribute's value with the root's `set` over `expression` (the rules' value), where
    /// some copy sets it.
    func settingAttribute(_ attribute: AttributeDescription, of entity: String, over expression: String) -> String
    /// True for the map row `m` of a copy's root whose copy `set`s `attribute` of `entity`,
    /// exactly (per copy); nil when no copy sets it.
    func attributeSetCondition(_ attribute: AttributeDescription, of entity: String) -> String?
    /// Where the INSERT of `entity`'s copies reads the original rows.
    func rowSource(_ entity: EntityDescription) -> String
    /// The order the copied rows are inserted in.
    var insertOrder: String { get }
    /// The copy whose linked objects stand for every copy's (all copies walk the same graph);
    /// nil when each copy is read for its own.
    var linkedCopy: Int? { get }
    /// For an attribute that follows itself (a tree carrying its root's id): the statements that
    /// push each chain top's value down every level of the clone, after the follow's update.
    func followPropagation(_ follow: GraphCopyFollow) -> [String]
}

extension GraphCopySQLBuilder {
    var model: DataModel { schema.model }
    var root: EntityDescription { scope.root }
    var rootTag: Int { scope.rootTag }
    var rootExclusions: Set<String> { scope.rootExclusions }
    var relationshipIndex: [String: Int] { scope.relationshipIndex }
    var reachable: Set<String> { scope.reachable }

    /// The map rows of entity `entity`'s copies, as a `FROM` item named `alias`.
    func mapRows(_ entity: Int, _ alias: String) -> String { "\(Self.mapTable(of: entity)) \(alias)" }

    /// The conditions that keep map row `alias` to entity `entity`'s rows: none where its table
    /// holds that entity's alone.
    func mapOf(_ entity: Int, _ alias: String) -> [String] { Self.mapNamesEntities ? ["\(alias).ent = \(entity)"] : [] }

    /// The condition that map row `alias` is the clone of `entity`'s object `old` in copy `copy`.
    func mapKey(_ entity: Int, _ alias: String, old: String, copy: String) -> String {
        (mapOf(entity, alias) + ["\(alias).old = \(old)", "\(alias).cp = \(copy)"]).joined(separator: " AND ")
    }

    /// `conditions` as one, `true` for none.
    func allOf(_ conditions: [String]) -> String { conditions.isEmpty ? Dialect.trueLiteral : conditions.joined(separator: " AND ") }

    /// `value` (a model default) as a literal, a binary value by its blob's key.
    static func literal(_ value: AttributeValue) -> String { Dialect.literal(value.blobKeyed) }

    /// The linked objects' table, the map's and the walk's (what each holds is the backend's).
    static var linkedTable: String { Dialect.workTable("_clone_linked") }
    static var walkTable: String { Dialect.workTable("_clone_walk") }

    func typed(_ expression: String, _ type: AttributeType) -> String { Dialect.typed(expression, type) }

    func tag(_ entity: String) -> Int { schema.entityTag(entity) }

    func isRootEntity(_ entity: String) -> Bool { entity == root.name }

    func isFollowed(_ relationship: RelationshipDescription) -> Bool { GraphCopyScope.isFollowed(relationship, plan: plan) }

    func excludedAtRoot(_ entity: String, _ property: String) -> Bool {
        isRootEntity(entity) && rootExclusions.contains(property)
    }

    /// The relationship stored in a join table as its `src` side, and its inverse if any.
    func sides(of joinTable: JoinTableDescription) -> (source: RelationshipDescription, inverse: RelationshipDescription?) {
        for relationship in model.entity(named: joinTable.sourceEntity)!.relationships {
            if case .joinTable(joinTable.name, "src", _, _) = schema.storage(of: relationship) {
                return (relationship, model.inverse(of: relationship))
            }
        }
        preconditionFailure("join table \(joinTable.name) has no source relationship")
    }

    /// A blanked value: the model's default (a binary one as its blob's key, the blob kept while
    /// the model names it), or NULL.
    func blank(_ attribute: AttributeDescription) -> String {
        attribute.defaultValue.map(Self.literal) ?? "NULL"
    }

    /// The value a rule gives a copied row (`followParent` here means its fallback: the parent's
    /// value is read by the INSERT or written by a follow step).
    func ruleExpression(_ rule: AttributeCopyRule, _ attribute: AttributeDescription, original: String) -> String {
        switch rule {
        case .copy: return original
        case .blank: return blank(attribute)
        case .newUUID: return Dialect.newUUID
        case .cloneTime: return Self.cloneTime
        // The value as it is; `selectingRows` gives the suffixed one around the row.
        case .suffixed: return original
        case .followParent(_, let otherwise): return ruleExpression(otherwise, attribute, original: original)
        }
    }
}
