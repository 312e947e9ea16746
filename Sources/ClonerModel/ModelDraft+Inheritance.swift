extension ModelDraft {
    /// Resolves entity inheritance (the model file's `parent` and `abstract`, Core Data's parent
    /// entity and Abstract Entity) by giving each concrete entity the attributes, relationships and
    /// unique groups of its ancestors, root first, as if it had declared them itself. Abstract
    /// entities have no objects of their own, so they leave the model: each concrete entity keeps
    /// its table and collection, its inherited properties are columns of its own, and the clone
    /// rules in a parent's user info apply to every descendant because the descendant's property
    /// carries them.
    ///
    /// That is all an abstract base needs when nothing points at it: shared attributes, and
    /// relationships out of the hierarchy without an inverse. A relationship whose destination is
    /// an abstract entity or one with sub-entities names objects of several entities, and a
    /// concrete entity with sub-entities has objects of several entities in its collection; neither
    /// has a store layout yet, so both are refused by name rather than stored with the wrong
    /// meaning. Also refused: a parent that is no entity of the model, a cycle of parents, and a
    /// sub-entity declaring a property its ancestors have (Core Data does not override).
    ///
    /// Returns the problems; while there are any, the model is left as read, since the entities and
    /// properties the rest of validation checks are not settled.
    mutating func resolveInheritance() -> [ModelProblem] {
        guard entities.contains(where: { $0.parent != nil || $0.isAbstract }) else { return [] }
        var problems: [ModelProblem] = []
        let byName = Dictionary(entities.compactMap { entity in entity.name.map { ($0, entity) } }, uniquingKeysWith: { first, _ in first })
        var chains: [String: [Entity]] = [:]
        for entity in entities {
            guard let name = entity.name else { continue }
            let (chain, problem) = ancestors(of: entity, in: byName)
            if let problem { problems.append(problem) } else { chains[name] = chain }
        }
        let parents = Set(entities.compactMap(\.parent))
        let withoutObjects = parents.union(entities.filter(\.isAbstract).compactMap(\.name))
        for entity in entities {
            guard let name = entity.name else { continue }
            if parents.contains(name) && !entity.isAbstract {
                let children = entities.filter { $0.parent == name }.compactMap(\.name)
                problems.append(
                    ModelProblem(
                        entity: name, property: nil, at: "\(entity.path).abstract",
                        "has sub-entities (\(children.joined(separator: ", "))) but objects of its own too; only an abstract entity can be a parent for now"
                    ))
            }
            for relationship in entity.relationships {
                guard let destination = relationship.destination, withoutObjects.contains(destination) else { continue }
                let what =
                    parents.contains(destination) ? "a parent entity (its objects are those of its sub-entities)" : "an abstract entity with no sub-entities"
                problems.append(
                    ModelProblem(
                        entity: name, property: relationship.name, at: "\(relationship.path).destination",
                        "destination \(destination) is \(what); a relationship to it is not stored yet: point it at a concrete entity"))
            }
        }
        guard problems.isEmpty else { return problems }
        entities = entities.compactMap { entity in
            guard let name = entity.name, !entity.isAbstract else { return nil }
            return inheriting(entity, from: chains[name] ?? [], problems: &problems)
        }
        return problems
    }

    /// `entity`'s ancestors, root first, or the problem that stops the chain.
    private func ancestors(of entity: Entity, in byName: [String: Entity]) -> (chain: [Entity], problem: ModelProblem?) {
        var chain: [Entity] = []
        var seen: Set<String> = [entity.name ?? ""]
        var current = entity
        while let parentName = current.parent {
            guard let parent = byName[parentName] else {
                let known = byName.keys.sorted().joined(separator: ", ")
                let problem = ModelProblem(
                    entity: entity.name, property: nil, at: "\(current.path).parent",
                    "parent \"\(parentName)\" is not an entity of the model; the entities are \(known)")
                return ([], problem)
            }
            guard seen.insert(parentName).inserted else {
                return ([], ModelProblem(entity: entity.name, property: nil, at: "\(current.path).parent", "its parents form a cycle through \(parentName)"))
            }
            chain.insert(parent, at: 0)
            current = parent
        }
        return (chain, nil)
    }

    /// `entity` with its ancestors' properties and groups before its own.
    private func inheriting(_ entity: Entity, from chain: [Entity], problems: inout [ModelProblem]) -> Entity {
        guard !chain.isEmpty else { return entity }
        var resolved = entity
        var inherited: [String: String] = [:]
        resolved.attributes = []
        resolved.relationships = []
        resolved.uniqueTogether = []
        for ancestor in chain {
            for attribute in ancestor.attributes { if let name = attribute.name { inherited[name] = ancestor.name } }
            for relationship in ancestor.relationships { if let name = relationship.name { inherited[name] = ancestor.name } }
            resolved.attributes += ancestor.attributes
            resolved.relationships += ancestor.relationships
            resolved.uniqueTogether += ancestor.uniqueTogether
        }
        let own = entity.attributes.map { ($0.name, $0.path) } + entity.relationships.map { ($0.name, $0.path) }
        for case let (name?, path) in own {
            guard let ancestor = inherited[name] else { continue }
            problems.append(
                ModelProblem(
                    entity: entity.name, property: name, at: "\(path).name",
                    "\(name) is inherited from \(ancestor); a sub-entity cannot declare it again"))
        }
        resolved.attributes += entity.attributes
        resolved.relationships += entity.relationships
        resolved.uniqueTogether += entity.uniqueTogether
        return resolved
    }
}
