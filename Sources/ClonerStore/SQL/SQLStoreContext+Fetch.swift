import ClonerModel
import Foundation

/// Object reads the same on every backend; the page queries (`fetchPositions`) and the read
/// routes' records stay each backend's own, tuned to how it plans and caches statements.
extension SQLStoreContext {
    /// The `_id`s matching a request, in its order: one query, however many objects.
    func fetchIDs(_ request: FetchRequest) throws -> [Int64] {
        try fetchPositions(request).map(\.id)
    }

    /// One object with its attributes and relationships, or nil if there is none with that `_id`.
    func fetchObject(entity: String, id: Int64) throws -> StoredObject? {
        try fetchObjects(entity: entity, ids: [id]).first
    }

    /// Objects in the order of `ids` (missing ones left out), with every relationship and every
    /// binary value: one query for the rows plus one per relationship stored elsewhere and one per
    /// binary attribute, for the whole batch.
    func fetchObjects(entity name: String, ids: [Int64]) throws -> [StoredObject] {
        var objects = try fetchObjectsWithBlobKeys(entity: name, ids: ids)
        guard !objects.isEmpty else { return objects }
        for attribute in entity(name).attributes where attribute.type == .binary {
            let keyed = objects.indices.filter { objects[$0].attributes[attribute.name].map { !$0.isNull } ?? false }
            guard !keyed.isEmpty else { continue }
            let values = try binaryValues(entity: name, attribute: attribute.name, ids: keyed.map { objects[$0].id })
            // An empty value's blob has no bytes to read.
            for index in keyed { objects[index].attributes[attribute.name] = .binary(values[objects[index].id] ?? Data()) }
        }
        return objects
    }

    /// Records for an answer, through `fetchObjectsWithBlobKeys`, their binary values read by
    /// `readBinaryValues`.
    func fetchRecords(entity name: String, ids: [Int64], inlineBinaryBytes: Int) throws -> StoredRecords {
        var records = StoredRecords(entity: entity(name), objects: try fetchObjectsWithBlobKeys(entity: name, ids: ids))
        try readBinaryValues(in: &records, inlineBytes: inlineBinaryBytes)
        return records
    }

    /// `fetchObjects` with each binary value as the row holds it, its blob's key.
    private func fetchObjectsWithBlobKeys(entity name: String, ids: [Int64]) throws -> [StoredObject] {
        guard !ids.isEmpty else { return [] }
        let entity = entity(name)
        let ownColumns = entity.relationships.compactMap { relationship -> (String, String)? in
            if case .foreignKeyOnSource(let column) = schema.storage(of: relationship) { return (relationship.name, column) }
            return nil
        }
        let columns = ["\"_id\"", "\"_version\""] + entity.attributes.map { quoted($0.name) } + ownColumns.map { quoted($0.1) }
        let sql = "SELECT " + columns.joined(separator: ", ") + " FROM \(quoted(name)) WHERE \"_id\" \(Dialect.among(1))"
        var byID: [Int64: StoredObject] = [:]
        byID.reserveCapacity(ids.count)
        try connection.forEachRow(sql, arguments: [.ids(ids)]) { row in
            var attributes: [String: AttributeValue] = [:]
            attributes.reserveCapacity(entity.attributes.count)
            for (offset, attribute) in entity.attributes.enumerated() {
                attributes[attribute.name] = row.attributeValue(offset + 2, attribute.type)
            }
            var relationships: [String: RelationshipValue] = [:]
            for (offset, own) in ownColumns.enumerated() {
                relationships[own.0] = .toOne(row.optionalInt64(2 + entity.attributes.count + offset))
            }
            let id = row.int64(0)
            byID[id] = StoredObject(entity: name, id: id, version: row.int64(1), attributes: attributes, relationships: relationships)
        }
        let found = Array(byID.keys)
        for relationship in entity.relationships {
            if case .foreignKeyOnSource = schema.storage(of: relationship) { continue }
            let destinations = try destinationIDs(of: relationship, for: found)
            for id in found {
                let list = destinations[id] ?? []
                byID[id]?.relationships[relationship.name] = relationship.isToMany ? .toMany(list) : .toOne(list.first)
            }
        }
        return ids.compactMap { byID[$0] }
    }

    /// Current version of an object, or nil if it does not exist.
    func version(entity: String, id: Int64) throws -> Int64? {
        try connection.int64("SELECT \"_version\" FROM \(quoted(entity)) WHERE \"_id\" = \(Dialect.parameter(1))", arguments: [.integer(id)])
    }
}
