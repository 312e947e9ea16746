import Foundation

/// The normalised model: the model-file format with every default written out, which is what
/// `GET /model` answers and what the fingerprint is taken over. Loading it again gives an equal model.
extension DataModel: Encodable {
    public var normalizedJSON: JSONValue {
        .object(["entities": .array(entities.map(\.normalizedJSON))])
    }

    /// Indented, sorted-key JSON for people and `GET /model`. Build it once per loaded model; the
    /// model does not change while the service runs.
    public var normalizedText: String { normalizedJSON.prettyText }

    /// A 64-bit FNV-1a hash of the canonical normalised JSON, as 16 hex digits. It changes with any
    /// change to the model, including clone rules and defaults, and not with formatting, member order
    /// or spelled-out defaults; the store records it to notice that the model changed.
    public var fingerprint: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in normalizedJSON.canonicalText.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    public func encode(to encoder: any Encoder) throws {
        try normalizedJSON.encode(to: encoder)
    }
}

extension EntityDescription {
    var normalizedJSON: JSONValue {
        .object([
            "name": .string(name),
            "collection": .string(collection),
            "attributes": .array(attributes.map(\.normalizedJSON)),
            "relationships": .array(relationships.map(\.normalizedJSON)),
        ])
    }
}

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
