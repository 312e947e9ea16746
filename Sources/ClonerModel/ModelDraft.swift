/// The model file as read, before it is known to be valid. Fields the file got wrong are nil, so the
/// validator can keep checking everything else (and report every problem in one run) without
/// building the `DataModel`, whose init traps on an invalid model.
struct ModelDraft {
    struct Attribute {
        /// Where the attribute sits in the file, e.g. `entities[0].attributes[2]`.
        var path: String
        var name: String?
        var type: AttributeType?
        var integerWidth = IntegerWidth.bits64
        var isOptional = false
        var defaultValue: AttributeValue?
        var isUnique = false
        var originalName: String?
        var renamingID: String?
        var userInfo: [String: JSONValue] = [:]
        var cloneRule = AttributeCloneRule()

        func description() -> AttributeDescription? {
            guard let name, let type else { return nil }
            return AttributeDescription(
                name: name, type: type, integerWidth: integerWidth, isOptional: isOptional, defaultValue: defaultValue,
                isUnique: isUnique, originalName: originalName, renamingID: renamingID, userInfo: userInfo, cloneRule: cloneRule)
        }
    }

    struct Relationship {
        var path: String
        var name: String?
        var destination: String?
        var isToMany = false
        var isOrdered = false
        var inverseName: String?
        var deleteRule: DeleteRule = .nullify
        var isOptional = true
        var renamingID: String?
        var userInfo: [String: JSONValue] = [:]
        var cloneRule = RelationshipCloneRule()
        var minCount: Int?
        var maxCount: Int?
        /// Set when the declaration points into an inheritance hierarchy and this is one stored
        /// part of it, or its inverse is (`ModelDraft.splitRelationshipsIntoHierarchies`).
        var declaration: RelationshipDeclaration?

        func description() -> RelationshipDescription? {
            guard let name, let destination else { return nil }
            var relationship = RelationshipDescription(
                name: name, destination: destination, isToMany: isToMany, isOrdered: isOrdered,
                inverseName: inverseName, deleteRule: deleteRule, isOptional: isOptional, renamingID: renamingID, userInfo: userInfo,
                cloneRule: cloneRule)
            relationship.minCount = minCount
            relationship.maxCount = maxCount
            relationship.declaration = declaration
            return relationship
        }
    }

    struct Entity {
        var path: String
        var name: String?
        /// The explicit `collection`, nil when the file leaves it to the default.
        var collection: String?
        var attributes: [Attribute] = []
        var relationships: [Relationship] = []
        /// Attribute names per `uniqueTogether` group; only well-formed groups are kept.
        var uniqueTogether: [[String]] = []
        var renamingID: String?
        /// The entity this one inherits from (Core Data's parent entity), as the file names it.
        var parent: String?
        /// An entity with no objects of its own, only its sub-entities'.
        var isAbstract = false
        /// The root of the inheritance hierarchy a concrete entity belongs to, once resolved: the
        /// entities of one hierarchy share one `_id` space.
        var hierarchy: String?

        var effectiveCollection: String? { collection ?? name.map(EntityDescription.defaultCollection(for:)) }

        func attribute(named name: String) -> Attribute? { attributes.first { $0.name == name } }
        func relationship(named name: String) -> Relationship? { relationships.first { $0.name == name } }

        func description() -> EntityDescription? {
            guard let name else { return nil }
            let attributes = attributes.compactMap { $0.description() }
            let relationships = relationships.compactMap { $0.description() }
            guard attributes.count == self.attributes.count, relationships.count == self.relationships.count else { return nil }
            var description = EntityDescription(
                name: name, collection: effectiveCollection, attributes: attributes, relationships: relationships,
                uniqueTogether: uniqueTogether, renamingID: renamingID)
            if let hierarchy {
                description.parent = parent
                description.hierarchy = hierarchy
            }
            return description
        }
    }

    var entities: [Entity] = []
    /// The abstract entities, once inheritance is resolved and they have left `entities`.
    var abstractEntities: [AbstractEntityDescription] = []

    func entity(named name: String) -> Entity? { entities.first { $0.name == name } }
}
