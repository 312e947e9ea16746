import ClonerModel
import ClonerStore

/// One clone request checked against the model and turned into the store's `GraphCopyPlan`, in
/// model terms only: which relationships a copy owns, what is left out, how each attribute gets
/// its value (docs/architecture.md#clone-semantics). Nothing is read from the store to build it; it is built once per
/// request, before anything is queued, and the store's copier does the rest in its own SQL.
public struct ClonePlan: Sendable {
    public let request: CloneRequest
    /// What the store copies.
    public let copy: GraphCopyPlan

    /// What the plan takes from the model alone, the same for every request: made once per
    /// engine (`CloneEngine`) rather than per request: walking every entity's attributes and
    /// naming each rule is a cost a small clone should not pay every time.
    public struct ModelRules: Sendable {
        let owned: Set<String>
        let rules: [String: AttributeCopyRule]

        public init(model: DataModel) {
            var owned: Set<String> = []
            var rules: [String: AttributeCopyRule] = [:]
            for entity in model.entities {
                for relationship in entity.relationships where relationship.isOwned { owned.insert(relationship.qualifiedName) }
                for attribute in entity.attributes {
                    let rule = ClonePlan.copyRule(attribute.cloneRule)
                    if rule != .copy { rules["\(entity.name).\(attribute.name)"] = rule }
                }
            }
            self.owned = owned
            self.rules = rules
        }
    }

    public init(request: CloneRequest, schema: StoreSchema) throws(CloneError) {
        try self.init(request: request, schema: schema, rules: ModelRules(model: schema.model))
    }

    public init(request: CloneRequest, schema: StoreSchema, rules modelRules: ModelRules) throws(CloneError) {
        let model = schema.model
        guard let root = model.entity(named: request.entity) else { throw .unknownEntity(request.entity) }
        self.request = request
        // A to-many the request sets is not walked from the root: its list is replaced anyway.
        var walked = request
        walked.exclude += request.setLinks.keys.sorted().filter { !request.exclude.contains($0) }
        let exclusions = try CloneExclusions(model: model, request: walked)
        try ClonePlan.checkSet(request.set, root: root, schema: schema)
        try ClonePlan.checkCopies(request, root: root, schema: schema)
        try ClonePlan.checkSetBytes(request)
        for (name, ids) in request.setLinks.sorted(by: { $0.key < $1.key }) {
            let stored = root.storedRelationships(ofField: name)
            guard let relationship = stored.first, relationship.isToMany else {
                throw .invalidRequest(field: "set.\(name)", message: "\(root.name) has no to-many relationship named \(name)")
            }
            guard request.set[name] == nil else {
                throw .invalidRequest(field: "set.\(name)", message: "set twice")
            }
            guard Set(ids).count == ids.count else {
                throw .invalidRequest(field: "set.\(name)", message: "lists the same _id twice")
            }
            if !ids.isEmpty {
                for part in stored { try ClonePlan.checkLinkKeepsOwners(part, model: model, field: "set.\(name)") }
            }
        }

        self.copy = GraphCopyPlan(
            rootEntity: root.name, rootID: request.id, ownedRelationships: modelRules.owned,
            excludedEverywhere: exclusions.everywhere, excludedAtRoot: exclusions.rootOnly,
            rootValues: request.set, rootLinks: request.setLinks, attributeRules: modelRules.rules,
            dryRun: request.dryRun, returnIDs: request.returnIDs, maximumObjects: request.maximumObjects,
            copies: request.copies ?? 1, perCopyRootValues: request.copySets)
    }

    /// The attribute rules (docs/architecture.md#attribute-rules) below `exclude` (which the plan carries as exclusions), in
    /// precedence: followParent (its `withoutParent` fallback: blank, or the value kept — rebuilt
    /// when `rebuild` is set too), rebuild, copy.
    static func copyRule(_ rule: AttributeCloneRule) -> AttributeCopyRule {
        let rebuilt: AttributeCopyRule
        switch rule.rebuild {
        case .uuid?: rebuilt = .newUUID
        case .now?: rebuilt = .cloneTime
        case .suffix?: rebuilt = .suffixed(rule.copySuffix)
        case nil: rebuilt = .copy
        }
        guard let followed = rule.followParent else { return rebuilt }
        return .followParent(attribute: followed, otherwise: rule.withoutParent == .blank ? .blank : rebuilt)
    }

    /// What a clone would find missing at once — the source object (404) or a `set`
    /// relationship's destination (422) — checked before a job is queued, so a bound-to-fail clone
    /// never becomes a 202.
    public func checkTargets(in context: any StoreContext) throws {
        guard try context.version(entity: copy.rootEntity, id: copy.rootID) != nil else {
            throw CloneError.rootNotFound(entity: copy.rootEntity, id: copy.rootID)
        }
        let root = context.model.entity(named: copy.rootEntity)!
        // Each distinct link once, however many copies name it.
        var checked: Set<String> = []
        let sources =
            [(prefix: "set.", values: copy.rootValues)]
            + copy.perCopyRootValues.enumerated().map { (prefix: "copies[\($0.offset)].set.", values: $0.element) }
        for (prefix, values) in sources {
            for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                guard let relationship = root.relationship(named: name), case .integer(let target) = value,
                    checked.insert("\(name)#\(target)").inserted
                else { continue }
                guard try context.version(entity: relationship.destination, id: target) != nil else {
                    throw CloneError.invalidRequest(field: "\(prefix)\(name)", message: "no \(relationship.destination) with _id \(target)")
                }
            }
        }
    }

    /// Relationship rules 8 and 3 (docs/architecture.md#set-on-the-root, #ownership): a `set` value naming original objects links them, and
    /// linking through a relationship whose inverse is to-one would re-point each object's single
    /// back-reference to the clone, taking it from its owner in the source. A clone request never
    /// changes its source, so such a link is refused.
    private static func checkLinkKeepsOwners(_ relationship: RelationshipDescription, model: DataModel, field: String) throws(CloneError) {
        guard let inverse = model.inverse(of: relationship), !inverse.isToMany else { return }
        throw .invalidRequest(
            field: field,
            message:
                "\(relationship.source).\(relationship.fieldName) cannot link existing objects: its inverse \(inverse.source).\(inverse.fieldName) is to-one, so linking would take them from their owner, and a clone never changes its source"
        )
    }

    /// docs/architecture.md#many-copies: 1 to `maximumCopies` copies, and per copy a `set` checked as the request's
    /// own. A relationship a copy sets is not walked from the root (rule 8), and the walk is one
    /// for all copies, so a relationship set for one copy must be set for every copy.
    private static func checkCopies(_ request: CloneRequest, root: EntityDescription, schema: StoreSchema) throws(CloneError) {
        guard let copies = request.copies else {
            guard request.copySets.isEmpty else { throw .invalidRequest(field: "copies", message: "per-copy set values without copies") }
            return
        }
        guard copies >= 1 else { throw .invalidRequest(field: "copies", message: "expected at least 1 copy") }
        guard copies <= request.maximumCopies else {
            throw .invalidRequest(field: "copies", message: "\(copies) copies is more than the limit of \(request.maximumCopies) (maxCopies)")
        }
        guard request.copySets.isEmpty || request.copySets.count == copies else {
            throw .invalidRequest(field: "copies", message: "\(request.copySets.count) per-copy set objects for \(copies) copies")
        }
        for (index, values) in request.copySets.enumerated() {
            try checkSet(values, root: root, schema: schema, prefix: "copies[\(index)].set.")
            for name in values.keys.sorted() where !root.storedRelationships(ofField: name).isEmpty && request.set[name] == nil {
                if let other = request.copySets.firstIndex(where: { $0[name] == nil }) {
                    throw .invalidRequest(
                        field: "copies[\(index)].set.\(name)",
                        message:
                            "\(root.name).\(name) is set for copy \(index) but not for copy \(other); a relationship set for one copy must be set for every copy, or in the request's set"
                    )
                }
            }
        }
    }

    /// The root's `set` values as the copies store them: each copy its own, so a request body of
    /// a few megabytes times `copies` would otherwise be gigabytes held and written before the
    /// clone could answer. The `_id`s of a to-many list it sets count 8 bytes each
    /// per copy, for the links every copy writes. Refused (422) before any work when over
    /// `maximumSetBytes`, naming `copies` when the per-copy values weigh most, else `set`.
    private static func checkSetBytes(_ request: CloneRequest) throws(CloneError) {
        func bytes(_ value: AttributeValue) -> Int {
            switch value {
            case .string(let text), .json(let text): text.utf8.count
            case .binary(let data): data.count
            case .uuid: 16
            case .decimal(let value): value.text.utf8.count
            case .null, .integer, .double, .boolean, .date: 8
            }
        }
        let copies = request.copies ?? 1
        let shared = request.set.mapValues(bytes)
        // A to-many list the request sets is linked by every copy: 8 bytes an `_id`, a join row
        // or reference each.
        let links = request.setLinks.values.reduce(0) { $0 + 8 * $1.count }
        var ownBytes = 0
        var sharedBytes = 0
        for index in 0..<copies {
            let own = index < request.copySets.count ? request.copySets[index] : [:]
            ownBytes += own.values.reduce(0) { $0 + bytes($1) }
            sharedBytes += links + shared.reduce(0) { $0 + (own[$1.key] == nil ? $1.value : 0) }
            guard ownBytes + sharedBytes <= request.maximumSetBytes else {
                let (field, whose) = ownBytes > sharedBytes ? ("copies", "the copies' own set values") : ("set", "the set values")
                throw .invalidRequest(
                    field: field,
                    message:
                        "\(whose), stored once per copy, pass the limit of \(request.maximumSetBytes) bytes (maxCloneSetBytes) at copy \(index + 1) of \(copies): ask for fewer copies or smaller values"
                )
            }
        }
    }

    private static func checkSet(
        _ values: [String: AttributeValue], root: EntityDescription, schema: StoreSchema,
        prefix: String = "set."
    ) throws(CloneError) {
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            let field = "\(prefix)\(name)"
            if let attribute = root.attribute(named: name) {
                if value.isNull {
                    guard attribute.isOptional else { throw .invalidRequest(field: field, message: "\(root.name).\(name) is required and cannot be null") }
                } else if value.type != attribute.type {
                    throw .invalidRequest(field: field, message: "\(root.name).\(name) expects a \(attribute.type.rawValue)")
                }
            } else if case let stored = root.storedRelationships(ofField: name), let relationship = stored.first {
                let onRoot = stored.allSatisfy { part in
                    guard !part.isToMany, case .foreignKeyOnSource = schema.storage(of: part) else { return false }
                    return true
                }
                guard onRoot else {
                    throw .invalidRequest(
                        field: field, message: "\(root.name).\(name): only attributes and to-one relationships stored on \(root.name) can be set")
                }
                switch value {
                case .null:
                    guard relationship.declaration?.isOptional ?? relationship.isOptional else {
                        throw .invalidRequest(field: field, message: "\(root.name).\(name) is required and cannot be null")
                    }
                case .integer:
                    for part in stored { try checkLinkKeepsOwners(part, model: schema.model, field: field) }
                default:
                    throw .invalidRequest(field: field, message: "\(root.name).\(name) expects an _id (integer) or null")
                }
            } else {
                throw .invalidRequest(field: field, message: "\(root.name) has no attribute or relationship named \(name)")
            }
        }
    }
}
