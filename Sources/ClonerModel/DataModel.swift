/// A validated object model: the entities and their properties with every inverse and ownership
/// resolved once. Built by `ModelLoader` after validation; building one from descriptions that
/// were not validated is a programmer error and traps.
public struct DataModel: Sendable, Hashable {
    public let entities: [EntityDescription]
    /// The abstract entities of its inheritance hierarchies: no table each, a read-only collection
    /// each (docs/architecture.md#relationships-into-a-hierarchy).
    public let abstractEntities: [AbstractEntityDescription]
    private let entityIndex: [String: Int]
    private let collectionIndex: [String: Int]

    public init(entities: [EntityDescription], abstractEntities: [AbstractEntityDescription] = []) {
        var resolved = entities
        let byName = Dictionary(
            entities.enumerated().map { ($1.name, $0) },
            uniquingKeysWith: { _, _ -> Int in
                preconditionFailure("duplicate entity name; validate the model before building a DataModel")
            })
        for entityIndex in resolved.indices {
            let sourceName = resolved[entityIndex].name
            for relationshipIndex in resolved[entityIndex].relationships.indices {
                let relationship = resolved[entityIndex].relationships[relationshipIndex]
                guard let destinationIndex = byName[relationship.destination] else {
                    preconditionFailure("\(sourceName).\(relationship.name): unknown destination \(relationship.destination)")
                }
                var inverseIsToMany = false
                if let inverseName = relationship.inverseName {
                    guard let inverse = entities[destinationIndex].relationship(named: inverseName) else {
                        preconditionFailure("\(sourceName).\(relationship.name): unknown inverse \(inverseName)")
                    }
                    inverseIsToMany = inverse.isToMany
                }
                resolved[entityIndex].updateRelationship(at: relationshipIndex) {
                    $0.source = sourceName
                    $0.inverseIsToMany = inverseIsToMany
                }
            }
            resolved[entityIndex].reindex()
        }
        self.entities = resolved
        self.entityIndex = byName
        self.collectionIndex = Dictionary(resolved.enumerated().map { ($1.collection, $0) }, uniquingKeysWith: { first, _ in first })
        self.abstractEntities = abstractEntities.map { abstract in
            var abstract = abstract
            let leaves = abstract.concreteEntities.compactMap { byName[$0].map { resolved[$0] } }
            abstract.attributes = (leaves.first?.attributes ?? []).filter { attribute in
                leaves.allSatisfy { $0.attribute(named: attribute.name)?.type == attribute.type }
            }
            return abstract
        }
    }

    public func entity(named name: String) -> EntityDescription? {
        entityIndex[name].map { entities[$0] }
    }

    public func entity(forCollection collection: String) -> EntityDescription? {
        collectionIndex[collection].map { entities[$0] }
    }

    public func abstractEntity(named name: String) -> AbstractEntityDescription? {
        abstractEntities.first { $0.name == name }
    }

    public func abstractEntity(forCollection collection: String) -> AbstractEntityDescription? {
        abstractEntities.first { $0.collection == collection }
    }

    /// The concrete entities whose objects `name` names: itself when concrete, its concrete
    /// descendants when abstract.
    public func concreteEntities(named name: String) -> [String] {
        if entityIndex[name] != nil { return [name] }
        return abstractEntity(named: name)?.concreteEntities ?? []
    }

    /// The entities whose `_id`s are drawn from one space with `entity`'s: its inheritance
    /// hierarchy's concrete entities, or itself alone outside any.
    public func entitiesSharingIDs(with entity: String) -> [String] {
        guard let hierarchy = self.entity(named: entity)?.hierarchy else { return [entity] }
        return entities.filter { $0.hierarchy == hierarchy }.map(\.name)
    }

    /// The inverse of `relationship`, if it declares one.
    public func inverse(of relationship: RelationshipDescription) -> RelationshipDescription? {
        guard let inverseName = relationship.inverseName else { return nil }
        return entity(named: relationship.destination)?.relationship(named: inverseName)
    }
}
