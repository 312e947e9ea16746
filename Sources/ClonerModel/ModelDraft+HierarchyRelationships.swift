extension ModelDraft {
    /// The one place a relationship into an inheritance hierarchy becomes what the store keeps
    /// (docs/architecture.md#relationships-into-a-hierarchy). Run once inheritance is resolved:
    /// `entities` are the concrete ones with their inherited properties, `abstractEntities` the rest.
    ///
    /// A relationship whose destination is abstract is replaced by one *part* per concrete
    /// descendant of it (`post` → `post__Post`, `post__Page`), each an ordinary relationship to that
    /// entity: a reference column, an inverse to-one or a join table of its own, so the store, its
    /// delete rules and the clone's walk and re-pointing need nothing new. Each part's inverse is
    /// the destination's side that points back at this entity: the declared inverse itself when
    /// its destination is this entity, else its part for this entity. Parts are optional and
    /// unbounded one by one; the declared cardinality holds over them together and is the API's to
    /// check. Every relationship whose stored form differs from its declaration keeps the
    /// declaration (`RelationshipDeclaration`), which the API and the normalised model speak.
    mutating func splitRelationshipsIntoHierarchies() -> [ModelProblem] {
        var concreteUnder: [String: [String]] = [:]
        for entity in entities {
            guard let name = entity.name else { continue }
            concreteUnder[name] = [name]
        }
        for abstract in abstractEntities { concreteUnder[abstract.name] = abstract.concreteEntities }
        guard !abstractEntities.isEmpty else { return [] }
        let declared = Dictionary(entities.compactMap { entity in entity.name.map { ($0, entity) } }, uniquingKeysWith: { first, _ in first })
        var problems: [ModelProblem] = []
        for index in entities.indices {
            guard let source = entities[index].name else { continue }
            entities[index].relationships = entities[index].relationships.flatMap { relationship -> [Relationship] in
                guard let name = relationship.name, let destination = relationship.destination, let targets = concreteUnder[destination] else {
                    return [relationship]
                }
                guard !targets.isEmpty else {
                    problems.append(
                        ModelProblem(
                            entity: source, property: name, at: "\(relationship.path).destination",
                            "destination \(destination) is abstract and so is every entity under it: it has no objects to link; point it at a concrete entity"
                        ))
                    return [relationship]
                }
                let isSplit = targets != [destination]
                var stored: [Relationship] = []
                for target in targets {
                    var part = relationship
                    if isSplit {
                        part.name = RelationshipDeclaration.partName(name, destination: target)
                        part.destination = target
                        part.isOptional = true
                        part.minCount = nil
                        part.maxCount = nil
                        part.renamingID = nil
                    }
                    if let inverse = relationship.inverseName {
                        let (storedInverse, problem) = Self.storedInverse(
                            inverse, on: declared[target], pointingAt: source, under: concreteUnder, relationship: relationship)
                        if let problem { problems.append(problem) }
                        part.inverseName = storedInverse
                    }
                    stored.append(part)
                }
                guard isSplit || stored[0].inverseName != relationship.inverseName else { return [relationship] }
                let declaration = RelationshipDeclaration(
                    name: name, destination: destination, inverseName: relationship.inverseName, isOptional: relationship.isOptional,
                    minCount: relationship.minCount, maxCount: relationship.maxCount)
                return stored.map { part in
                    var part = part
                    part.declaration = declaration
                    return part
                }
            }
        }
        return problems
    }

    /// The stored name of `inverse` on `target` for the part pointing at `source`: itself when it
    /// points at `source`, its part for `source` when it points at an abstract ancestor of it.
    private static func storedInverse(
        _ inverse: String, on target: Entity?, pointingAt source: String, under concreteUnder: [String: [String]], relationship: Relationship
    ) -> (String, ModelProblem?) {
        guard let target, let declared = target.relationship(named: inverse), let destination = declared.destination else {
            // Not there: the validator names the missing inverse.
            return (inverse, nil)
        }
        if destination == source { return (inverse, nil) }
        if destination != source, concreteUnder[destination]?.contains(source) == true {
            return (RelationshipDeclaration.partName(inverse, destination: source), nil)
        }
        let problem = ModelProblem(
            entity: source, property: relationship.name, at: "\(relationship.path).inverse",
            "inverse \(target.name ?? "").\(inverse) does not point back: its destination is \(destination), neither \(source) nor an entity \(source) inherits from"
        )
        return (inverse, problem)
    }
}
