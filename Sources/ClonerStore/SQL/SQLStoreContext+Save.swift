import ClonerModel
import Foundation

/// The save steps after the inserts that are the same on every backend (`ChangeSetWriter` runs
/// them in order); the inserts themselves stay each backend's own (one prepared INSERT per row
/// on SQLite, multi-row `unnest` batches on PostgreSQL).
extension SQLStoreContext {
    /// Moves the versions of `ids` of `entity` up by one, in one statement.
    func bumpVersions(entity: String, ids: [Int64]) throws {
        try connection.perform(
            "UPDATE \(quoted(entity)) SET \"_version\" = \"_version\" + 1 WHERE \"_id\" \(Dialect.among(1))", arguments: [.ids(ids)])
    }

    /// Writes the given attribute values of one row (checked against the model first) in one
    /// UPDATE, noting the blobs whose references it replaces.
    func updateRow(_ entity: EntityDescription, id: Int64, _ given: [String: AttributeValue], touched: inout TouchedObjects) throws {
        guard !given.isEmpty else { return }
        let names = given.keys.sorted()
        var values: [Connection.Value] = []
        values.reserveCapacity(names.count + 1)
        for name in names {
            let attribute = entity.attribute(named: name)!
            try checkValue(given[name]!, for: attribute, entity: entity)
            values.append(try storedValue(given[name]!, entity: entity.name, attribute: name))
        }
        let binary = names.filter { entity.attribute(named: $0)?.type == .binary }
        if !binary.isEmpty { touched.droppedBlobs.formUnion(try blobKeys(entity: entity.name, columns: binary, ids: [id])) }
        values.append(Connection.value(.integer(id)))
        let sql =
            "UPDATE \(quoted(entity.name)) SET " + names.enumerated().map { "\(quoted($1)) = \(Dialect.parameter($0 + 1))" }.joined(separator: ", ")
            + " WHERE \"_id\" = \(Dialect.parameter(names.count + 1))"
        try connection.perform(sql, values: values)
    }

    /// Every required to-one relationship of the new objects is set: one query per relationship
    /// for all of them.
    func checkRequiredRelationships(_ entity: EntityDescription, ids: [Int64]) throws {
        for relationship in entity.relationships where !relationship.isOptional && !relationship.isToMany {
            let destinations = try destinationIDs(of: relationship, for: ids)
            if ids.contains(where: { destinations[$0]?.isEmpty ?? true }) {
                throw StoreError.requiredRelationship(entity: entity.name, relationship: relationship.name)
            }
        }
    }
}
