/// The checks that look across properties and entities (docs/architecture.md#the-model-file, #clone-semantics): names, duplicates,
/// destinations, inverses, ownership overrides and `followParent` against every possible parent.
/// It works on a `ModelDraft` that may be partly broken, skipping only what a reported problem
/// already makes meaningless, so one run reports every independent mistake.
struct ModelValidator {
    /// Collections that would shadow the service's own routes (docs/architecture.md#routes).
    static let reservedCollections: Set<String> = ["jobs", "model", "openapi.yaml", "healthz", "readyz", "metrics"]
    /// The record keys the service adds to every record (docs/architecture.md#records).
    static let reservedNames: Set<String> = ["_id", "_entity", "_version"]

    let draft: ModelDraft
    let keys: CloneRuleKeys
    private(set) var problems: [ModelProblem] = []

    init(draft: ModelDraft, keys: CloneRuleKeys) {
        self.draft = draft
        self.keys = keys
    }

    mutating func validate() {
        checkKeys()
        checkEntityNames()
        for entity in draft.entities {
            checkProperties(of: entity)
            checkUniqueTogether(of: entity)
            for relationship in entity.relationships {
                checkRelationship(relationship, of: entity)
            }
        }
        checkFollowParent()
    }

    // MARK: Names

    private mutating func checkKeys() {
        let names = [keys.exclude, keys.rebuild, keys.followParent, keys.withoutParent, keys.clone]
        if Set(names).count != names.count || names.contains(where: \.isEmpty) {
            problems.append(ModelProblem(message: "the clone rule keys must be distinct and non-empty: \(names.map { "\"\($0)\"" }.joined(separator: ", "))"))
        }
    }

    /// Letters, digits and `_`, not starting with `_` or a digit (docs/architecture.md#the-model-file). ASCII only: the names
    /// become SQLite identifiers and URL segments, where anything else needs quoting or escaping.
    static func nameProblem(_ name: String) -> String? {
        if reservedNames.contains(name) { return "the name \"\(name)\" is reserved for the service's record keys" }
        guard let first = name.utf8.first else { return "the name is empty" }
        if first == UInt8(ascii: "_") { return "the name \"\(name)\" must not start with _ (names starting with _ are the service's)" }
        if isDigit(first) { return "the name \"\(name)\" must not start with a digit" }
        guard name.utf8.allSatisfy({ isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") }) else {
            return "the name \"\(name)\" may contain only ASCII letters, digits and _"
        }
        return nil
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// RFC 3986 §2.3 unreserved characters, so a collection is a path segment needing no escaping.
    static func collectionProblem(_ collection: String) -> String? {
        guard !collection.isEmpty else { return "the collection is empty" }
        guard collection != ".", collection != "..",
            collection.utf8.allSatisfy({ isLetter($0) || isDigit($0) || "-._~".utf8.contains($0) })
        else { return "the collection \"\(collection)\" may contain only ASCII letters, digits and - . _ ~" }
        if reservedCollections.contains(collection) {
            return "the collection \"\(collection)\" is taken by the service's own /\(collection) route; set another \"collection\""
        }
        return nil
    }

    private mutating func checkEntityNames() {
        // SQLite compares identifiers case-insensitively, so "Note" and "note" would be one table.
        var seenNames: [String: ModelDraft.Entity] = [:]
        var seenCollections: [String: ModelDraft.Entity] = [:]
        for entity in draft.entities {
            if let name = entity.name {
                if let problem = Self.nameProblem(name) {
                    problems.append(ModelProblem(entity: name, property: nil, at: "\(entity.path).name", problem))
                }
                if let earlier = seenNames[name.lowercased()] {
                    let how =
                        earlier.name == name ? "is declared twice" : "differs from \"\(earlier.name ?? "")\" only in case, and SQLite table names ignore case"
                    problems.append(
                        ModelProblem(
                            entity: name, property: nil, at: "\(entity.path).name", "duplicate entity name: \"\(name)\" \(how) (first at \(earlier.path))"))
                } else {
                    seenNames[name.lowercased()] = entity
                }
            }
            if let collection = entity.effectiveCollection {
                let path = entity.collection == nil ? "\(entity.path).name" : "\(entity.path).collection"
                // A collection derived from an invalid name would only repeat the name's problem.
                let derivedFromBadName = entity.collection == nil && entity.name.flatMap(Self.nameProblem) != nil
                if !derivedFromBadName, let problem = Self.collectionProblem(collection) {
                    problems.append(ModelProblem(entity: entity.name, property: nil, at: path, problem))
                }
                if let earlier = seenCollections[collection] {
                    problems.append(
                        ModelProblem(
                            entity: entity.name, property: nil, at: path,
                            "duplicate collection \"\(collection)\", already used by entity \(earlier.name ?? "?") (at \(earlier.path)); set a different \"collection\""
                        ))
                } else {
                    seenCollections[collection] = entity
                }
            }
        }
    }

    private mutating func checkProperties(of entity: ModelDraft.Entity) {
        var seen: [String: (name: String, path: String)] = [:]
        let properties = entity.attributes.map { ($0.name, $0.path) } + entity.relationships.map { ($0.name, $0.path) }
        for case let (name?, path) in properties {
            if let problem = Self.nameProblem(name) {
                problems.append(ModelProblem(entity: entity.name, property: name, at: "\(path).name", problem))
            }
            if let earlier = seen[name.lowercased()] {
                let how = earlier.name == name ? "is declared twice" : "differs from \"\(earlier.name)\" only in case, and SQLite column names ignore case"
                problems.append(
                    ModelProblem(
                        entity: entity.name, property: name, at: "\(path).name",
                        "duplicate property name: \"\(name)\" \(how) in \(entity.name ?? "the entity") (first at \(earlier.path))"))
            } else {
                seen[name.lowercased()] = (name, path)
            }
        }
        // A rename must point at a column that no current property owns, or the migration is ambiguous.
        var originalNames: [String: String] = [:]
        for attribute in entity.attributes {
            guard let name = attribute.name, let originalName = attribute.originalName else { continue }
            let path = "\(attribute.path).originalName"
            if let problem = Self.nameProblem(originalName) {
                problems.append(ModelProblem(entity: entity.name, property: name, at: path, "originalName: \(problem)"))
            } else if originalName.lowercased() == name.lowercased() {
                problems.append(
                    ModelProblem(
                        entity: entity.name, property: name, at: path,
                        "originalName \"\(originalName)\" is the attribute's own name; drop it once the rename has shipped"))
            } else if let owner = seen[originalName.lowercased()] {
                problems.append(
                    ModelProblem(
                        entity: entity.name, property: name, at: path,
                        "originalName \"\(originalName)\" is the name of another property, \(owner.name), so the rename would be ambiguous"))
            } else if let other = originalNames[originalName.lowercased()] {
                problems.append(
                    ModelProblem(entity: entity.name, property: name, at: path, "originalName \"\(originalName)\" is also the originalName of \(other)"))
            } else {
                originalNames[originalName.lowercased()] = name
            }
        }
    }

    /// Every name of every `uniqueTogether` group is an attribute of the entity, named once, and no
    /// group repeats another (in any order): a repeated index would only slow writes down.
    private mutating func checkUniqueTogether(of entity: ModelDraft.Entity) {
        var seenGroups: [Set<String>: Int] = [:]
        for (index, group) in entity.uniqueTogether.enumerated() {
            let path = "\(entity.path).uniqueTogether[\(index)]"
            func report(_ message: String) {
                problems.append(ModelProblem(entity: entity.name, property: nil, at: path, "uniqueTogether \(group): \(message)"))
            }
            var seen: Set<String> = []
            var valid = true
            for name in group {
                if !seen.insert(name).inserted {
                    report("names \(name) twice")
                    valid = false
                } else if entity.relationship(named: name) != nil {
                    report("\(name) is a relationship; only attributes can be unique together")
                    valid = false
                } else if entity.attribute(named: name) == nil {
                    let known = entity.attributes.compactMap(\.name)
                    report("\(entity.name ?? "the entity") has no attribute named \(name); the attributes are \(known.joined(separator: ", "))")
                    valid = false
                }
            }
            guard valid else { continue }
            if let earlier = seenGroups[seen] {
                report("repeats uniqueTogether[\(earlier)] (the same attributes)")
            } else {
                seenGroups[seen] = index
            }
        }
    }

    // MARK: Relationships

    /// The inverse of `relationship` when it exists and names `relationship` back; nil otherwise.
    private func validInverse(of relationship: ModelDraft.Relationship, in entity: ModelDraft.Entity) -> ModelDraft.Relationship? {
        guard let destinationName = relationship.destination, let inverseName = relationship.inverseName,
            let destination = draft.entity(named: destinationName),
            let inverse = destination.relationship(named: inverseName),
            inverse.destination == entity.name, inverse.inverseName == relationship.name
        else { return nil }
        return inverse
    }

    private mutating func checkRelationship(_ relationship: ModelDraft.Relationship, of entity: ModelDraft.Entity) {
        guard let name = relationship.name, let destinationName = relationship.destination else { return }
        func report(_ field: String, _ message: String) {
            problems.append(ModelProblem(entity: entity.name, property: name, at: "\(relationship.path).\(field)", message))
        }
        guard let destination = draft.entity(named: destinationName) else {
            let known = draft.entities.compactMap(\.name)
            report("destination", "destination \"\(destinationName)\" is not an entity of the model; the entities are \(known.joined(separator: ", "))")
            return
        }
        if let inverseName = relationship.inverseName {
            let sourceName = entity.name ?? "?"
            if let inverse = destination.relationship(named: inverseName) {
                if inverse.destination != entity.name {
                    report(
                        "inverse",
                        "inverse \(destinationName).\(inverseName) does not point back: its destination is \(inverse.destination ?? "missing"), not \(sourceName)"
                    )
                } else if inverse.inverseName == nil {
                    report(
                        "inverse", "inverse \(destinationName).\(inverseName) does not point back: it declares no inverse, and both sides must name each other")
                } else if inverse.inverseName != name {
                    report("inverse", "inverse \(destinationName).\(inverseName) does not point back: its inverse is \(inverse.inverseName ?? ""), not \(name)")
                }
            } else if destination.attribute(named: inverseName) != nil {
                report("inverse", "inverse \"\(inverseName)\" is an attribute of \(destinationName), not a relationship")
            } else {
                report("inverse", "inverse \"\(inverseName)\" is not a relationship of \(destinationName)")
            }
        }
        // docs/architecture.md#the-document: a natural key named for the destination's shared
        // objects must name attributes they have.
        if let key = relationship.userInfo[RelationshipDescription.naturalKeyUserInfoKey] {
            let names: [String]?
            switch key {
            case .string(let name): names = [name]
            case .array(let items): names = items.count == items.compactMap(\.stringValue).count ? items.compactMap(\.stringValue) : nil
            default: names = nil
            }
            if let names, !names.isEmpty {
                for missing in names where destination.attribute(named: missing) == nil {
                    report(
                        "userInfo.\(RelationshipDescription.naturalKeyUserInfoKey)",
                        "naturalKey names \(missing), which is no attribute of \(destinationName)")
                }
            } else {
                report(
                    "userInfo.\(RelationshipDescription.naturalKeyUserInfoKey)",
                    "naturalKey must be an attribute name of \(destinationName) or a non-empty list of them")
            }
        }
        // Relationship rule 3 (docs/architecture.md#ownership): sharing a relationship whose inverse is to-one would
        // re-point each destination's single back-reference to the clone.
        if relationship.cloneRule.ownershipOverride == .share, let inverse = validInverse(of: relationship, in: entity), !inverse.isToMany {
            report(
                "userInfo.\(keys.clone)",
                "\(keys.clone): share needs a to-many inverse, but \(destinationName).\(inverse.name ?? "") is to-one: linking would steal the destinations from the original"
            )
        }
    }

    /// The default ownership (docs/architecture.md#ownership) with the `clone` override; nil when the inverse is broken
    /// (already reported), so no ownership can be trusted.
    private func ownership(of relationship: ModelDraft.Relationship, in entity: ModelDraft.Entity) -> RelationshipCloneRule.Ownership? {
        if let override = relationship.cloneRule.ownershipOverride { return override }
        guard relationship.inverseName != nil else { return .copy }
        guard let inverse = validInverse(of: relationship, in: entity) else { return nil }
        return inverse.isToMany ? .share : .copy
    }

    // MARK: followParent (attribute rule 2, docs/architecture.md#following-the-parent)

    /// A possible parent of E is every entity with an owned relationship to E: a clone reaches E's
    /// objects only through those. Relationships excluded in `userInfo` are never followed, so they
    /// make no parent.
    private mutating func checkFollowParent() {
        var parents: [String: [(entity: ModelDraft.Entity, relationship: String)]] = [:]
        for entity in draft.entities {
            for relationship in entity.relationships where !relationship.cloneRule.isExcluded {
                guard let name = relationship.name, let destination = relationship.destination,
                    draft.entity(named: destination) != nil,
                    ownership(of: relationship, in: entity) == .copy
                else { continue }
                parents[destination, default: []].append((entity, name))
            }
        }
        for entity in draft.entities {
            guard let entityName = entity.name else { continue }
            for attribute in entity.attributes {
                guard let name = attribute.name, let type = attribute.type, let followed = attribute.cloneRule.followParent else { continue }
                // Attribute rule 2 (docs/architecture.md#following-the-parent): a parent whose entity lacks the attribute counts as no parent
                // (`withoutParent` decides), so only a type clash, or no possible parent having the
                // attribute at all (a typo), is a mistake.
                let possible = parents[entityName] ?? []
                let path = "\(attribute.path).userInfo.\(keys.followParent)"
                var reported: Set<String> = []
                for parent in possible {
                    guard let parentName = parent.entity.name, !reported.contains(parentName),
                        let parentType = parent.entity.attribute(named: followed)?.type, parentType != type
                    else { continue }
                    reported.insert(parentName)
                    let through = "\(parentName) can be the parent of \(entityName) through \(parentName).\(parent.relationship)"
                    problems.append(
                        ModelProblem(
                            entity: entityName, property: name, at: path,
                            "\(keys.followParent) \"\(followed)\": \(parentName).\(followed) is \(parentType.rawValue), but \(entityName).\(name) is \(type.rawValue); \(through)"
                        ))
                }
                if possible.isEmpty {
                    // No owned relationship reaches the entity, so the rule can never act: naming
                    // an attribute no parent could have is as much a typo as with parents.
                    problems.append(
                        ModelProblem(
                            entity: entityName, property: name, at: path,
                            "\(keys.followParent) \"\(followed)\": no entity can be the parent of \(entityName) (no relationship owns it), so no parent has an attribute \(followed)"
                        ))
                } else if !possible.contains(where: { $0.entity.attribute(named: followed) != nil }) {
                    let names = Array(Set(possible.compactMap(\.entity.name))).sorted().joined(separator: ", ")
                    problems.append(
                        ModelProblem(
                            entity: entityName, property: name, at: path,
                            "\(keys.followParent) \"\(followed)\": no entity that can be the parent of \(entityName) (\(names)) has an attribute \(followed)"))
                }
            }
        }
    }

    // MARK: Building

    /// The validated model; call only when `problems` is empty.
    func model() -> DataModel {
        precondition(problems.isEmpty, "building a DataModel from a model with problems")
        let entities = draft.entities.map { entity -> EntityDescription in
            guard let description = entity.description() else {
                preconditionFailure("an incomplete draft entity passed validation: \(entity.path)")
            }
            return description
        }
        return DataModel(entities: entities, abstractEntities: draft.abstractEntities)
    }
}
