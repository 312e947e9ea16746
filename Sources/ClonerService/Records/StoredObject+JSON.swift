import ClonerModel
import ClonerStore

extension StoredObject {
    /// Writes the record as the flat JSON object (docs/architecture.md#records).
    func write(entity: EntityDescription, listRoutes: [String?], to writer: inout JSONWriter) {
        RecordJSONCoding.writeRecord(
            entity: entity, id: id, version: version,
            attributes: entity.attributes.map { attributes[$0.name] ?? .null },
            relationships: entity.relationships.map { relationships[$0.name] ?? ($0.isToMany ? .toMany([]) : .toOne(nil)) },
            listRoutes: listRoutes, to: &writer)
    }

    func jsonBytes(entity: EntityDescription, listRoutes: [String?]) -> [UInt8] {
        var writer = JSONWriter(capacity: 128 + 32 * (entity.attributes.count + entity.relationships.count))
        write(entity: entity, listRoutes: listRoutes, to: &writer)
        return writer.bytes
    }

    /// `ETag` of the record: its row version, as a strong validator (RFC 9110 §8.8.3).
    var entityTag: String { "\"\(version)\"" }
}
