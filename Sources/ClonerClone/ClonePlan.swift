import ClonerModel
import ClonerStore

/// The SQL of one clone, derived from the model, the store's schema and the request — and from
/// nothing else: no object has been read yet. Its size grows with the number of entities and
/// relationships in the model, never with the number of objects, which is what keeps a clone of
/// a million rows a few dozen statements.
///
/// The statements, run in this order by `CloneExecutor`:
/// 1. `walk`: one recursive query that finds every object the root owns, through owned (copy)
///    relationships, skipping the exact inverse edge of arrival; `UNION` ends cycles.
/// 2. per entity, `mapFill`: old → new `_id` (new ids continue the table's sequence, in old-id
///    order) and each object's parent — its first arrival in breadth-first order.
/// 3. `linked`: the shared objects the clone links to (also what a dry run reports).
/// 4. per entity, `insert`: one INSERT … SELECT copying rows inside SQLite (blobs never reach
///    Swift), applying the attribute rules and re-pointing references into the clone set.
/// 5. `joinInserts`: links of join tables, re-pointed or shared.
/// 6. `follows`: `followParent` attributes, from the parent's clone, once every row exists.
public struct ClonePlan: Sendable {
    struct EntityStep: Sendable {
        let name: String
        let tag: Int
        /// Needs `:base` (the table's next `_id` minus one).
        let mapFill: String
        let nextIDQuery: String
        /// One INSERT … SELECT, or two when ordered references split the rows (see the builder).
        let inserts: [String]
    }

    struct FollowStep: Sendable {
        let entity: String
        let attribute: String
        let update: String
        /// For an attribute that follows itself (a tree carrying its root's id): statements that
        /// push the value from each chain's top down all levels, run after `update`.
        let propagation: [String]
    }

    public let request: CloneRequest
    let rootTag: Int
    let walk: String
    let entitySteps: [EntityStep]
    let linkedQueries: [String]
    let joinInserts: [String]
    let follows: [FollowStep]
    /// Named parameters the statements use besides `:now`, `:root`, `:base`.
    let setParameters: [String: SQLValue]
    /// A to-one the request sets on the root: checked to exist, and counted as linked.
    let setReferences: [(relationship: String, destination: String, id: Int64)]

    static let walkTable = "temp.\"_clone_walk\""
    static let mapTable = "temp.\"_clone_map\""
    static let linkedTable = "temp.\"_clone_linked\""
    static let chainTable = "temp.\"_clone_chain\""

    /// SQL for a random (version 4) UUID in canonical lower-case text, evaluated per row inside
    /// SQLite so rebuilt ids cost no round trip to Swift.
    static let uuidExpression = """
        (lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) || '-' \
        || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))))
        """

    public init(request: CloneRequest, schema: StoreSchema) throws(CloneError) {
        let model = schema.model
        guard let root = model.entity(named: request.entity) else { throw .unknownEntity(request.entity) }
        self.request = request
        // A to-many the request sets is not walked from the root: its list is replaced anyway.
        var walked = request
        walked.exclude += request.setLinks.keys.sorted().filter { !request.exclude.contains($0) }
        let exclusions = try CloneExclusions(model: model, request: walked)
        let (setParameters, setReferences) = try ClonePlan.checkSet(request.set, root: root, schema: schema)
        for (name, ids) in request.setLinks.sorted(by: { $0.key < $1.key }) {
            guard let relationship = root.relationship(named: name), relationship.isToMany else {
                throw .invalidRequest(field: "set.\(name)", message: "\(root.name) has no to-many relationship named \(name)")
            }
            guard request.set[name] == nil else {
                throw .invalidRequest(field: "set.\(name)", message: "set twice")
            }
            guard Set(ids).count == ids.count else {
                throw .invalidRequest(field: "set.\(name)", message: "lists the same _id twice")
            }
            if !ids.isEmpty { try ClonePlan.checkLinkKeepsOwners(relationship, model: model) }
        }
        self.setParameters = setParameters
        self.setReferences = setReferences
        self.rootTag = schema.entityTag(root.name)

        let builder = ClonePlanBuilder(schema: schema, root: root, exclusions: exclusions, request: request)
        let reachable = builder.reachableEntities()
        self.walk = builder.walkSQL()
        self.entitySteps = model.entities.filter { reachable.contains($0.name) }.map(builder.entityStep)
        self.linkedQueries = model.entities.filter { reachable.contains($0.name) }.flatMap(builder.linkedQueries)
            + schema.joinTables.flatMap { builder.joinLinkedQueries($0, reachable: reachable) }
        self.joinInserts = schema.joinTables.flatMap { builder.joinInserts($0, reachable: reachable) }
        self.follows = builder.followSteps(reachable: reachable)
    }

    /// DESIGN.md §3 rule 8 (and rule 3): a `set` value naming original objects links them, and
    /// linking through a relationship whose inverse is to-one would re-point each object's single
    /// back-reference to the clone, taking it from its owner in the source. A clone request never
    /// changes its source, so such a link is refused.
    private static func checkLinkKeepsOwners(_ relationship: RelationshipDescription, model: DataModel) throws(CloneError) {
        guard let inverse = model.inverse(of: relationship), !inverse.isToMany else { return }
        throw .invalidRequest(
            field: "set.\(relationship.name)",
            message: "\(relationship.qualifiedName) cannot link existing objects: its inverse \(inverse.qualifiedName) is to-one, so linking would take them from their owner, and a clone never changes its source")
    }

    private static func checkSet(_ values: [String: AttributeValue], root: EntityDescription, schema: StoreSchema) throws(CloneError)
        -> ([String: SQLValue], [(relationship: String, destination: String, id: Int64)]) {
        var parameters: [String: SQLValue] = [:]
        var references: [(relationship: String, destination: String, id: Int64)] = []
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            let field = "set.\(name)"
            if let attribute = root.attribute(named: name) {
                if value.isNull {
                    guard attribute.isOptional else { throw .invalidRequest(field: field, message: "\(root.name).\(name) is required and cannot be null") }
                } else if value.type != attribute.type {
                    throw .invalidRequest(field: field, message: "\(root.name).\(name) expects a \(attribute.type.rawValue)")
                }
                parameters[":set_\(name)"] = value.sqlValue
            } else if let relationship = root.relationship(named: name) {
                guard !relationship.isToMany, case .foreignKeyOnSource = schema.storage(of: relationship) else {
                    throw .invalidRequest(field: field, message: "\(root.name).\(name): only attributes and to-one relationships stored on \(root.name) can be set")
                }
                switch value {
                case .null:
                    guard relationship.isOptional else { throw .invalidRequest(field: field, message: "\(root.name).\(name) is required and cannot be null") }
                    parameters[":set_\(name)"] = .null
                case .integer(let id):
                    try checkLinkKeepsOwners(relationship, model: schema.model)
                    parameters[":set_\(name)"] = .integer(id)
                    references.append((name, relationship.destination, id))
                default:
                    throw .invalidRequest(field: field, message: "\(root.name).\(name) expects an _id (integer) or null")
                }
            } else {
                throw .invalidRequest(field: field, message: "\(root.name) has no attribute or relationship named \(name)")
            }
        }
        return (parameters, references)
    }
}
