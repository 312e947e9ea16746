/// The relationship in the model-file format with every default spelled out; no inverse is `null`.
extension RelationshipDescription {
    var normalizedJSON: JSONValue {
        .object([
            "name": .string(name),
            "destination": .string(destination),
            "toMany": .bool(isToMany),
            "ordered": .bool(isOrdered),
            "inverse": inverseName.map(JSONValue.string) ?? .null,
            "deleteRule": .string(deleteRule.rawValue),
            "optional": .bool(isOptional),
            "userInfo": .object(userInfo),
        ])
    }
}
