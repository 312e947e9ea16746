import ClonerModel
import Foundation

extension StoreContext {
    /// Applies a change set: inserts, updates (with optimistic version checks), relationship edits
    /// with their inverses, and deletes with the model's delete rules. Run it inside
    /// `IncrementalStore.write`, whose transaction makes it all-or-nothing.
    public func save(_ changes: ChangeSet) throws -> SaveResult {
        var touched = TouchedObjects()
        var insertedIDs: [Int64] = []
        insertedIDs.reserveCapacity(changes.inserts.count)

        for insert in changes.inserts {
            let entity = entity(insert.entity)
            try checkKnown(entity, attributes: insert.attributes.keys, relationships: insert.relationships.keys)
            insertedIDs.append(try insertRow(entity, insert.attributes))
        }
        for update in changes.updates {
            let entity = entity(update.entity)
            try checkKnown(entity, attributes: update.attributes.keys, relationships: update.relationships.keys)
            guard let version = try version(entity: entity.name, id: update.id) else {
                throw StoreError.notFound(entity: entity.name, id: update.id)
            }
            if let expected = update.expectedVersion, expected != version {
                throw StoreError.versionConflict(entity: entity.name, id: update.id, expected: expected, actual: version)
            }
            try updateRow(entity, id: update.id, update.attributes)
            touched.insert(entity.name, update.id)
        }

        func resolve(_ reference: ChangeSet.Reference) -> Int64 {
            switch reference {
            case .existing(let id): return id
            case .inserted(let index):
                precondition(insertedIDs.indices.contains(index), "reference to insert #\(index) of \(insertedIDs.count)")
                return insertedIDs[index]
            }
        }
        for (index, insert) in changes.inserts.enumerated() {
            let entity = entity(insert.entity)
            for name in insert.relationships.keys.sorted() {
                try applyEdit(entity, id: insertedIDs[index], relationship: entity.relationship(named: name)!,
                              edit: insert.relationships[name]!, resolve: resolve, touched: &touched)
            }
        }
        for update in changes.updates {
            let entity = entity(update.entity)
            for name in update.relationships.keys.sorted() {
                try applyEdit(entity, id: update.id, relationship: entity.relationship(named: name)!,
                              edit: update.relationships[name]!, resolve: resolve, touched: &touched)
            }
        }
        for (index, insert) in changes.inserts.enumerated() {
            try checkRequiredRelationships(entity(insert.entity), id: insertedIDs[index])
        }

        var deletedCounts: [String: Int] = [:]
        for delete in changes.deletes {
            for (entity, count) in try deleteObject(delete, touched: &touched) {
                deletedCounts[entity, default: 0] += count
            }
        }

        // Fresh inserts stay at version 1; everything else that changed moves up by exactly one.
        for (index, insert) in changes.inserts.enumerated() { touched.remove(insert.entity, insertedIDs[index]) }
        try touched.bumpVersions(connection)
        return SaveResult(insertedIDs: insertedIDs, deletedCounts: deletedCounts)
    }

    private func checkKnown<A: Sequence, R: Sequence>(_ entity: EntityDescription, attributes: A, relationships: R) throws
    where A.Element == String, R.Element == String {
        for name in attributes where entity.attribute(named: name) == nil {
            throw StoreError.unknownProperty(entity: entity.name, property: name)
        }
        for name in relationships where entity.relationship(named: name) == nil {
            throw StoreError.unknownProperty(entity: entity.name, property: name)
        }
    }

    private func checkValue(_ value: AttributeValue, for attribute: AttributeDescription, entity: EntityDescription) throws {
        if value.isNull {
            guard attribute.isOptional else {
                throw StoreError.invalidValue(entity: entity.name, property: attribute.name, reason: "is required and cannot be null")
            }
        } else if value.type != attribute.type {
            throw StoreError.invalidValue(entity: entity.name, property: attribute.name,
                                          reason: "expected a \(attribute.type.rawValue), got a \(value.type?.rawValue ?? "null")")
        }
    }

    private func insertRow(_ entity: EntityDescription, _ given: [String: AttributeValue]) throws -> Int64 {
        var values: [SQLValue] = []
        values.reserveCapacity(entity.attributes.count)
        for attribute in entity.attributes {
            let value: AttributeValue
            if let explicit = given[attribute.name] {
                value = explicit
            } else if let fallback = attribute.defaultValue {
                value = fallback
            } else if attribute.isOptional {
                value = .null
            } else {
                throw StoreError.invalidValue(entity: entity.name, property: attribute.name, reason: "is required")
            }
            try checkValue(value, for: attribute, entity: entity)
            values.append(value.sqlValue)
        }
        let sql: String
        if entity.attributes.isEmpty {
            sql = "INSERT INTO \(quoted(entity.name)) DEFAULT VALUES"
        } else {
            sql = "INSERT INTO \(quoted(entity.name)) (" + entity.attributes.map { quoted($0.name) }.joined(separator: ", ")
                + ") VALUES (" + Array(repeating: "?", count: entity.attributes.count).joined(separator: ", ") + ")"
        }
        try connection.execute(sql, values)
        return connection.lastInsertRowID
    }

    private func updateRow(_ entity: EntityDescription, id: Int64, _ given: [String: AttributeValue]) throws {
        guard !given.isEmpty else { return }
        let names = given.keys.sorted()
        var values: [SQLValue] = []
        for name in names {
            let attribute = entity.attribute(named: name)!
            try checkValue(given[name]!, for: attribute, entity: entity)
            values.append(given[name]!.sqlValue)
        }
        values.append(.integer(id))
        let sql = "UPDATE \(quoted(entity.name)) SET " + names.map { "\(quoted($0)) = ?" }.joined(separator: ", ") + " WHERE \"_id\" = ?"
        try connection.execute(sql, values)
    }

    private func checkRequiredRelationships(_ entity: EntityDescription, id: Int64) throws {
        for relationship in entity.relationships where !relationship.isOptional && !relationship.isToMany {
            let destinations = try destinationIDs(of: relationship, for: [id])
            if destinations[id]?.isEmpty ?? true {
                throw StoreError.requiredRelationship(entity: entity.name, relationship: relationship.name)
            }
        }
    }
}
