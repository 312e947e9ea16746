import ClonerModel

extension SchemaSnapshot {
    /// Rebuilds a model with the recorded storage-relevant facts, so the old layout can be computed
    /// with the same `StoreSchema` code as the new one.
    func makeModel() -> DataModel {
        DataModel(
            entities: entities.map { entity in
                var described = EntityDescription(
                    name: entity.name,
                    attributes: entity.attributes.map {
                        AttributeDescription(name: $0.name, type: $0.type, isOptional: $0.optional, isUnique: $0.unique)
                    },
                    relationships: entity.relationships.map {
                        RelationshipDescription(
                            name: $0.name, destination: $0.destination, isToMany: $0.toMany,
                            isOrdered: $0.ordered, inverseName: $0.inverse, isOptional: $0.optional)
                    },
                    uniqueTogether: entity.uniqueTogether ?? [])
                described.hierarchy = entity.hierarchy
                return described
            })
    }
}
