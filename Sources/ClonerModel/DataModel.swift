/// A validated object model: the entities and their properties with every inverse and ownership
/// resolved once. Built by `ModelLoader` after validation; building one from descriptions that
/// were not validated is a programmer error and traps.
public struct DataModel: Sendable, Hashable {
    public let entities: [EntityDescription]
    private let entityIndex: [String: Int]
    private let collectionIndex: [String: Int]

    public init(entities: [EntityDescription]) {
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
    }

    public func entity(named name: String) -> EntityDescription? {
        entityIndex[name].map { entities[$0] }
    }

    public func entity(forCollection collection: String) -> EntityDescription? {
        collectionIndex[collection].map { entities[$0] }
    }

    /// The inverse of `relationship`, if it declares one.
    public func inverse(of relationship: RelationshipDescription) -> RelationshipDescription? {
        guard let inverseName = relationship.inverseName else { return nil }
        return entity(named: relationship.destination)?.relationship(named: inverseName)
    }
}
