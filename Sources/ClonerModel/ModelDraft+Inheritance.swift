extension ModelDraft {
    /// Resolves entity inheritance (the model file's `parent` and `abstract`, Core Data's parent
    /// entity and Abstract Entity) by giving each concrete entity the attributes, relationships and
    /// unique groups of its ancestors, root first, as if it had declared them itself. Abstract
    /// entities have no objects of their own, so they leave the model: each concrete entity keeps
    /// its table and collection, its inherited properties are columns of its own, and the clone
    /// rules in a parent's user info apply to every descendant because the descendant's property
    /// carries them.
    ///
    /// A relationship whose destination is an abstract entity names objects of several concrete
    /// entities: it is split into one stored relationship per concrete destination
    /// (`splitRelationshipsIntoHierarchies`), and the concrete entities of one hierarchy share one
    /// `_id` space (`hierarchy`), so an `_id` names one object of it. Refused: a concrete entity
    /// with sub-entities (its collection would hold objects of several tables), a relationship to
    /// an abstract entity with no concrete descendant (nothing could be linked), a parent that is
    /// no entity of the model, a cycle of parents, and a sub-entity declaring a property its
    /// ancestors have (Core Data does not override).
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
                guard let destination = relationship.destination, withoutObjects.contains(destination), !parents.contains(destination) else { continue }
                problems.append(
                    ModelProblem(
                        entity: name, property: relationship.name, at: "\(relationship.path).destination",
                        "destination \(destination) is an abstract entity with no sub-entities: it has no objects to link; point it at a concrete entity"))
            }
        }
        guard problems.isEmpty else { return problems }
        let paths = Dictionary(entities.compactMap { entity in entity.name.map { ($0, entity.path) } }, uniquingKeysWith: { first, _ in first })
        abstractEntities = entities.compactMap { entity in
            guard let name = entity.name, entity.isAbstract else { return nil }
            let concrete = entities.filter { candidate in
                !candidate.isAbstract && (chains[candidate.name ?? ""] ?? []).contains { $0.name == name }
            }
            let collection = entity.effectiveCollection ?? EntityDescription.defaultCollection(for: name)
            return AbstractEntityDescription(name: name, collection: collection, parent: entity.parent, concreteEntities: concrete.compactMap(\.name))
        }
        entities = entities.compactMap { entity in
            guard let name = entity.name, !entity.isAbstract else { return nil }
            var resolved = inheriting(entity, from: chains[name] ?? [], problems: &problems)
            resolved.hierarchy = chains[name]?.first?.name
            return resolved
        }
        guard problems.isEmpty else { return problems }
        return checkAbstractCollections(paths: paths) + splitRelationshipsIntoHierarchies()
    }

    /// An abstract entity's read-only collection is a URL segment like any other: refused when it
    /// shadows a service route or another entity's collection.
    private func checkAbstractCollections(paths: [String: String]) -> [ModelProblem] {
        var problems: [ModelProblem] = []
        var taken = Dictionary(
            entities.compactMap { entity in entity.effectiveCollection.map { ($0, entity.name ?? "") } }, uniquingKeysWith: { first, _ in first })
        for abstract in abstractEntities {
            if let problem = ModelValidator.collectionProblem(abstract.collection) {
                problems.append(ModelProblem(entity: abstract.name, property: nil, at: "\(paths[abstract.name] ?? "").collection", problem))
            } else if let other = taken[abstract.collection] {
                problems.append(
                    ModelProblem(
                        entity: abstract.name, property: nil, at: "\(paths[abstract.name] ?? "").collection",
                        "its collection \"\(abstract.collection)\" is \(other)'s too; set another \"collection\""))
            }
            taken[abstract.collection] = abstract.name
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
