/// The entity in the model-file format with every default spelled out (see `DataModel.normalizedJSON`).
extension EntityDescription {
    var normalizedJSON: JSONValue {
        var fields: [String: JSONValue] = [
            "name": .string(name),
            "collection": .string(collection),
            "attributes": .array(attributes.map(\.normalizedJSON)),
            "relationships": .array(relationships.map(\.normalizedJSON)),
            "uniqueTogether": .array(uniqueTogether.map { .array($0.map(JSONValue.string)) }),
        ]
        // Written only when set, so a model without it keeps its fingerprint.
        if let renamingID { fields["renamingID"] = .string(renamingID) }
        return .object(fields)
    }
}
