import ClonerModel
import Foundation

/// A save, the same on every backend: its inserts set-wise, then the steps after them
/// (`ChangeSetWriter.applyAfterInserts`), so the same change set gets the same answer on each.
extension SQLStoreContext {
    /// Applies a change set: inserts, updates (with optimistic version checks), relationship edits
    /// with their inverses, and deletes with the model's delete rules, once the objects it names
    /// are held (`lockRows(of:)`). Run it inside `IncrementalStore.write`, whose transaction makes
    /// it all-or-nothing. The new rows' `_id`s are reserved first (`newIDs`, per entity), which
    /// lets a nested graph's parent links be written with the rows (`InsertLinkPlan`); then each
    /// entity's rows are a few multi-row INSERTs (`insertRows`).
    func save(_ changes: ChangeSet) throws -> SaveResult {
        var touched = TouchedObjects()
        try lockRows(of: changes)
        for insert in changes.inserts {
            try checkKnown(entity(insert.entity), attributes: insert.attributes.keys, relationships: insert.relationships.keys)
        }
        let plan = InsertLinkPlan(changes, model: model, schema: schema)
        // Every value checked before any id is taken.
        var attributeRows: [[AttributeValue]] = []
        attributeRows.reserveCapacity(changes.inserts.count)
        for insert in changes.inserts {
            let entity = entity(insert.entity)
            attributeRows.append(try entity.attributes.map { try insertValue($0, given: insert.attributes, entity: entity) })
        }
        var indicesByEntity: [String: [Int]] = [:]
        for (index, insert) in changes.inserts.enumerated() { indicesByEntity[insert.entity, default: []].append(index) }
        let groups = indicesByEntity.sorted { $0.key < $1.key }
        // Taken per `_id` space: the entities of one inheritance hierarchy share one, so theirs
        // are taken together (none of them is written yet to move the highest).
        var indicesBySpace: [String: [Int]] = [:]
        for (name, indices) in groups { indicesBySpace[model.entitiesSharingIDs(with: name)[0], default: []] += indices }
        var insertedIDs = [Int64](repeating: 0, count: changes.inserts.count)
        for (name, indices) in indicesBySpace.sorted(by: { $0.key < $1.key }) {
            for (index, id) in zip(indices, try newIDs(entity: name, after: nil, count: indices.count)) { insertedIDs[index] = id }
        }
        for (name, indices) in groups {
            try insertNewRows(entity(name), indices: indices, attributeRows: attributeRows, ids: insertedIDs, plan: plan)
        }
        let deletedCounts = try applyAfterInserts(changes, insertedIDs: insertedIDs, handledAtInsert: plan.handled, touched: &touched)
        return SaveResult(insertedIDs: insertedIDs, deletedCounts: deletedCounts)
    }

    /// The rows of one entity's inserts (`indices` into the change set's): `_id`, the attribute
    /// columns in model order, then each link column (and its position) the insert plan writes.
    private func insertNewRows(
        _ entity: EntityDescription, indices: [Int], attributeRows: [[AttributeValue]], ids: [Int64], plan: InsertLinkPlan
    ) throws {
        let links = plan.columns[entity.name] ?? []
        var columns: [(name: String, type: AttributeType?)] = [("_id", nil)] + entity.attributes.map { ($0.name, $0.type) }
        for link in links {
            columns.append((link.column, nil))
            if let position = link.positionColumn { columns.append((position, nil)) }
        }
        var rows: [[AttributeValue]] = []
        rows.reserveCapacity(indices.count)
        for index in indices {
            var row = [AttributeValue.integer(ids[index])] + attributeRows[index]
            for value in plan.linkValues(of: index, columns: links, parentID: { ids[$0] }) { row.append(value.map(AttributeValue.integer) ?? .null) }
            rows.append(row)
        }
        // A save's failure is its transaction's: its rows go out with its next statement.
        try insertRows(table: entity.name, columns: columns, rows: rows, entity: entity.name, ignoringDuplicates: false, waitsForAnswer: false)
    }

    /// Moves the versions of `ids` of `entity` up by one, in one statement, sent with the next.
    func bumpVersions(entity: String, ids: [Int64]) throws {
        try connection.performBeforeNextCommand(
            "UPDATE \(quoted(entity)) SET \"_version\" = \"_version\" + 1 WHERE \"_id\" \(Dialect.among(1))", values: [Connection.value(.ids(ids))])
    }

    /// Writes the given attribute values of one row (checked against the model first) in one
    /// UPDATE, sent with the next statement, noting the blobs whose references it replaces.
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
        try connection.performBeforeNextCommand(sql, values: values)
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
