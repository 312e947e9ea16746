import ClonerModel

/// One entity's record member names (and its name as the `_entity` value) quoted and escaped once,
/// for `JSONWriter.key(encoded:)`: a list writes the same names on every row.
struct RecordKeys: Sendable {
    let entityValue: [UInt8]
    let attributes: [[UInt8]]
    let relationships: [[UInt8]]
    /// The relationship fields a record shows, in model order: one per relationship, or one for
    /// all the stored parts of a relationship declared into an inheritance hierarchy.
    let fields: [RelationshipField]
    /// Per relationship, where a long to-many's objects are all listed (`RecordJSONCoding.listRoutes`).
    let listRoutes: [String?]
    /// `/{collection}/`, the start of a binary value's own route (`/notes/42/data`).
    let collectionPath: String

    static let id = JSONWriter.encodedKey("_id")
    static let entity = JSONWriter.encodedKey("_entity")
    static let version = JSONWriter.encodedKey("_version")
    static let clonedFrom = JSONWriter.encodedKey("_clonedFrom")
    /// The member of a record that says where a clone came from; the service keeps it, a body
    /// cannot set it.
    static let clonedFromName = "_clonedFrom"

    init(entity: EntityDescription, model: DataModel) {
        entityValue = JSONWriter.encodedString(entity.name)
        attributes = entity.attributes.map { JSONWriter.encodedKey($0.name) }
        relationships = entity.relationships.map { JSONWriter.encodedKey($0.name) }
        var fields: [RelationshipField] = []
        var fieldIndex: [String: Int] = [:]
        for (offset, relationship) in entity.relationships.enumerated() {
            if let index = fieldIndex[relationship.fieldName] {
                fields[index].parts.append(offset)
            } else {
                fieldIndex[relationship.fieldName] = fields.count
                fields.append(
                    RelationshipField(
                        key: JSONWriter.encodedKey(relationship.fieldName), parts: [offset], isOrdered: relationship.isOrdered))
            }
        }
        self.fields = fields
        listRoutes = RecordJSONCoding.listRoutes(entity, model: model)
        collectionPath = "/\(entity.collection)/"
    }

    /// Every entity's keys, by entity name; built once per model.
    static func byEntity(_ model: DataModel) -> [String: RecordKeys] {
        Dictionary(uniqueKeysWithValues: model.entities.map { ($0.name, RecordKeys(entity: $0, model: model)) })
    }
}

/// One relationship field of a record: the stored relationships (indexes into the entity's
/// `relationships`) whose values it shows together.
struct RelationshipField: Sendable {
    let key: [UInt8]
    var parts: [Int]
    let isOrdered: Bool
}
