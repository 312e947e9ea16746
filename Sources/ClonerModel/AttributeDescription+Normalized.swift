/// The attribute in the model-file format with every default spelled out; absent values are
/// written as `null`, which the loader reads back as absent.
extension AttributeDescription {
    var normalizedJSON: JSONValue {
        .object([
            "name": .string(name),
            "type": .string(type.rawValue),
            "optional": .bool(isOptional),
            "default": defaultValue?.jsonValue ?? .null,
            "unique": .bool(isUnique),
            "originalName": originalName.map(JSONValue.string) ?? .null,
            "userInfo": .object(userInfo),
        ])
    }
}
