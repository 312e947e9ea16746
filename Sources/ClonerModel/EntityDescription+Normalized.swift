/// The entity in the model-file format with every default spelled out (see `DataModel.normalizedJSON`).
extension EntityDescription {
    var normalizedJSON: JSONValue {
        var fields: [String: JSONValue] = [
            "name": .string(name),
            "collection": .string(collection),
            "attributes": .array(attributes.map(\.normalizedJSON)),
            "relationships": .array(declaredRelationships.map(\.normalizedJSON)),
            "uniqueTogether": .array(uniqueTogether.map { .array($0.map(JSONValue.string)) }),
        ]
        // Written only when set, so a model without it keeps its fingerprint.
        if let renamingID { fields["renamingID"] = .string(renamingID) }
        // A leaf of a hierarchy is written with every property resolved, its parent named so the
        // hierarchy (and its relationships' parts) is made again on loading.
        if let parent { fields["parent"] = .string(parent) }
        return .object(fields)
    }

    /// The relationships as the model declared them: a relationship split into parts once, at its
    /// first part, in its declared form.
    private var declaredRelationships: [RelationshipDescription] {
        var written: Set<String> = []
        return relationships.compactMap { relationship in
            guard written.insert(relationship.fieldName).inserted else { return nil }
            guard let declaration = relationship.declaration else { return relationship }
            var declared = relationship
            declared.name = declaration.name
            declared.destination = declaration.destination
            declared.inverseName = declaration.inverseName
            declared.isOptional = declaration.isOptional
            declared.minCount = declaration.minCount
            declared.maxCount = declaration.maxCount
            declared.declaration = nil
            return declared
        }
    }
}

/// An abstract entity in the model-file format: its name, collection and parent; its properties
/// are written resolved on each concrete descendant.
extension AbstractEntityDescription {
    var normalizedJSON: JSONValue {
        var fields: [String: JSONValue] = [
            "name": .string(name), "collection": .string(collection), "abstract": .bool(true),
            "attributes": .array([]), "relationships": .array([]), "uniqueTogether": .array([]),
        ]
        if let parent { fields["parent"] = .string(parent) }
        return .object(fields)
    }
}
