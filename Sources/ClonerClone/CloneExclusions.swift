import ClonerModel

/// Which properties a clone leaves out, from the model's `exclude` rules and the request's
/// `exclude` list, split by reach: everywhere the entity occurs, or on the root object only.
struct CloneExclusions: Sendable {
    /// "Entity.property", from the model's rules and the request's qualified names.
    private(set) var everywhere: Set<String> = []
    /// Bare property names of the root entity.
    private(set) var rootOnly: Set<String> = []

    init(model: DataModel, request: CloneRequest) throws(CloneError) {
        guard let root = model.entity(named: request.entity) else { throw .unknownEntity(request.entity) }
        for entity in model.entities {
            for attribute in entity.attributes where attribute.cloneRule.isExcluded {
                everywhere.insert("\(entity.name).\(attribute.name)")
            }
            for relationship in entity.relationships where relationship.cloneRule.isExcluded {
                everywhere.insert(relationship.qualifiedName)
            }
        }
        for (index, entry) in request.exclude.enumerated() {
            let field = "exclude[\(index)]"
            let parts = entry.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let entity: EntityDescription
            let property: String
            switch parts.count {
            case 1:
                entity = root
                property = parts[0]
            case 2:
                guard let named = model.entity(named: parts[0]) else {
                    throw .invalidRequest(field: field, message: "\(entry): no entity named \(parts[0])")
                }
                entity = named
                property = parts[1]
            default:
                throw .invalidRequest(field: field, message: "\(entry): expected a property name or Entity.property")
            }
            if let attribute = entity.attribute(named: property) {
                guard attribute.acceptsBlank else {
                    throw .invalidRequest(field: field, message: "\(entity.name).\(property) is required and has no default, so it cannot be excluded")
                }
            } else if let relationship = entity.relationship(named: property) {
                guard relationship.isOptional || relationship.isToMany else {
                    throw .invalidRequest(field: field, message: "\(entity.name).\(property) is a required relationship, so it cannot be excluded")
                }
            } else if case let stored = entity.relationshipParts(ofField: property), let declaration = stored.first?.declaration {
                // A relationship declared into an inheritance hierarchy: all its stored parts.
                guard declaration.isOptional || stored[0].isToMany else {
                    throw .invalidRequest(field: field, message: "\(entity.name).\(property) is a required relationship, so it cannot be excluded")
                }
                for part in stored {
                    if parts.count == 1 { rootOnly.insert(part.name) } else { everywhere.insert("\(entity.name).\(part.name)") }
                }
                continue
            } else {
                throw .invalidRequest(field: field, message: "\(entity.name) has no attribute or relationship named \(property)")
            }
            if parts.count == 1 { rootOnly.insert(property) } else { everywhere.insert(entry) }
        }
    }

    func isExcludedEverywhere(_ entity: String, _ property: String) -> Bool {
        everywhere.contains("\(entity).\(property)")
    }
}
