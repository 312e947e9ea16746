/// The entity in the model-file format with every default spelled out (see `DataModel.normalizedJSON`).
extension EntityDescription {
    var normalizedJSON: JSONValue {
        .object([
            "name": .string(name),
            "collection": .string(collection),
            "attributes": .array(attributes.map(\.normalizedJSON)),
            "relationships": .array(relationships.map(\.normalizedJSON)),
            "uniqueTogether": .array(uniqueTogether.map { .array($0.map(JSONValue.string)) }),
        ])
    }
}
