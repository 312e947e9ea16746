/// The attribute in the model-file format with every default spelled out; absent values are
/// written as `null`, which the loader reads back as absent. `bits` and `renamingID` are written
/// only when they say something, so a model that has neither keeps its fingerprint.
extension AttributeDescription {
    var normalizedJSON: JSONValue {
        var fields: [String: JSONValue] = [
            "name": .string(name),
            "type": .string(type.rawValue),
            "optional": .bool(isOptional),
            "default": defaultValue?.jsonValue ?? .null,
            "unique": .bool(isUnique),
            "originalName": originalName.map(JSONValue.string) ?? .null,
            "userInfo": .object(userInfo),
        ]
        if integerWidth != .bits64 { fields["bits"] = .integer(Int64(integerWidth.rawValue)) }
        if let renamingID { fields["renamingID"] = .string(renamingID) }
        return .object(fields)
    }
}
