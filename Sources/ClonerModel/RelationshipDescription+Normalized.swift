/// The relationship in the model-file format with every default spelled out; no inverse is `null`.
extension RelationshipDescription {
    var normalizedJSON: JSONValue {
        var fields: [String: JSONValue] = [
            "name": .string(name),
            "destination": .string(destination),
            "toMany": .bool(isToMany),
            "ordered": .bool(isOrdered),
            "inverse": inverseName.map(JSONValue.string) ?? .null,
            "deleteRule": .string(deleteRule.rawValue),
            "optional": .bool(isOptional),
            "userInfo": .object(userInfo),
        ]
        // Each written only when set, so a model without them keeps its fingerprint.
        if let renamingID { fields["renamingID"] = .string(renamingID) }
        if let minCount { fields["minCount"] = .integer(Int64(minCount)) }
        if let maxCount { fields["maxCount"] = .integer(Int64(maxCount)) }
        return .object(fields)
    }
}
