import ClonerModel
import Foundation

extension SQLiteStoreContext {
    func checkExist(_ entity: EntityDescription, _ relationship: RelationshipDescription, _ ids: [Int64]) throws {
        guard !ids.isEmpty else { return }
        if try existingCount(entity: relationship.destination, ids: ids) != ids.count {
            var found: Set<Int64> = []
            try connection.forEachRow(
                "SELECT \"_id\" FROM \(quoted(relationship.destination)) WHERE \"_id\" IN (\(SQLiteStoreContext.idsFromArray))",
                [SQLiteStoreContext.idArray(ids)]
            ) { found.insert($0.int64(0)) }
            let missing = ids.first { !found.contains($0) } ?? ids[0]
            throw StoreError.danglingReference(entity: entity.name, relationship: relationship.name, id: missing)
        }
    }

    /// A one-to-one that is its own inverse (`Person.spouse`) keeps both directions in its column,
    /// so either object reads the other. Setting `a.spouse = b` clears the previous spouses of both
    /// `a` and `b` (their own columns too), then points `a` and `b` at each other — as Core Data
    /// does. The unique index on the column holds throughout: each object is pointed at by at
    /// most its one partner.
    private func setSelfInverseToOne(
        _ entity: EntityDescription, id: Int64, relationship: RelationshipDescription, column: String,
        target: Int64?, touched: inout TouchedObjects
    ) throws {
        let table = quoted(entity.name)
        let current = try connection.scalar("SELECT \(quoted(column)) FROM \(table) WHERE \"_id\" = ?", [.integer(id)])?.int64
        guard current != target else { return }
        let targetCurrent = try target.flatMap { try connection.scalar("SELECT \(quoted(column)) FROM \(table) WHERE \"_id\" = ?", [.integer($0)])?.int64 }
        let partners = Set([id, current, target, targetCurrent].compactMap { $0 })
        let leftAlone = [current, targetCurrent].compactMap { $0 }.filter { $0 != id && $0 != target }
        if !leftAlone.isEmpty && !relationship.isOptional {
            throw StoreError.requiredRelationship(entity: entity.name, relationship: relationship.name)
        }
        try connection.execute(
            "UPDATE \(table) SET \(quoted(column)) = NULL WHERE \"_id\" IN (\(SQLiteStoreContext.idsFromArray))",
            [SQLiteStoreContext.idArray(partners.sorted())])
        if let target {
            try connection.execute("UPDATE \(table) SET \(quoted(column)) = ?2 WHERE \"_id\" = ?1", [.integer(id), .integer(target)])
            try connection.execute("UPDATE \(table) SET \(quoted(column)) = ?1 WHERE \"_id\" = ?2", [.integer(id), .integer(target)])
        }
        touched.insert(entity.name, contentsOf: partners.sorted())
    }

    func setToOne(
        _ entity: EntityDescription, id: Int64, relationship: RelationshipDescription, target: Int64?,
        touched: inout TouchedObjects
    ) throws {
        let destination = relationship.destination
        let hasInverse = relationship.hasInverse
        if relationship.isSelfInverse, case .foreignKeyOnSource(let column) = schema.storage(of: relationship) {
            return try setSelfInverseToOne(entity, id: id, relationship: relationship, column: column, target: target, touched: &touched)
        }
        switch schema.storage(of: relationship) {
        case .foreignKeyOnSource(let column):
            let table = quoted(entity.name)
            let current = try connection.scalar("SELECT \(quoted(column)) FROM \(table) WHERE \"_id\" = ?", [.integer(id)])?.int64
            guard current != target else { return }
            let foreignKey = schema.foreignKeys[entity.name]!.first { $0.column == column }!
            if foreignKey.isUnique, let target {
                // One-to-one: the destination leaves its previous owner.
                var holders: [Int64] = []
                try connection.forEachRow("SELECT \"_id\" FROM \(table) WHERE \(quoted(column)) = ? AND \"_id\" <> ?", [.integer(target), .integer(id)]) {
                    holders.append($0.int64(0))
                }
                if !holders.isEmpty && !relationship.isOptional {
                    throw StoreError.requiredRelationship(entity: entity.name, relationship: relationship.name)
                }
                try connection.execute(
                    "UPDATE \(table) SET \(quoted(column)) = NULL WHERE \(quoted(column)) = ? AND \"_id\" <> ?", [.integer(target), .integer(id)])
                touched.insert(entity.name, contentsOf: holders)
            }
            if let position = foreignKey.positionColumn {
                // Joining an ordered list from the to-one side appends at the end, as Core Data does.
                try connection.execute(
                    "UPDATE \(table) SET \(quoted(column)) = ?1, \(quoted(position)) = (SELECT coalesce(max(\(quoted(position))), -1) + 1 FROM \(table) WHERE \(quoted(column)) = ?1) WHERE \"_id\" = ?2",
                    [target.map(SQLiteValue.integer) ?? .null, .integer(id)])
            } else {
                try connection.execute("UPDATE \(table) SET \(quoted(column)) = ? WHERE \"_id\" = ?", [target.map(SQLiteValue.integer) ?? .null, .integer(id)])
            }
            if hasInverse {
                touched.insert(destination, current)
                touched.insert(destination, target)
            }
        case .foreignKeyOnDestination(let column, _):
            // The other side of a one-to-one holds the column.
            let table = quoted(destination)
            let current = try connection.scalar("SELECT \"_id\" FROM \(table) WHERE \(quoted(column)) = ?", [.integer(id)])?.int64
            guard current != target else { return }
            if let current {
                if let inverse = model.inverse(of: relationship), !inverse.isOptional {
                    throw StoreError.requiredRelationship(entity: destination, relationship: inverse.name)
                }
                try connection.execute("UPDATE \(table) SET \(quoted(column)) = NULL WHERE \"_id\" = ?", [.integer(current)])
                touched.insert(destination, current)
            }
            if let target {
                let previousOwner = try connection.scalar("SELECT \(quoted(column)) FROM \(table) WHERE \"_id\" = ?", [.integer(target)])?.int64
                try connection.execute("UPDATE \(table) SET \(quoted(column)) = ? WHERE \"_id\" = ?", [.integer(id), .integer(target)])
                touched.insert(destination, target)
                if let previousOwner, previousOwner != id {
                    if !relationship.isOptional { throw StoreError.requiredRelationship(entity: entity.name, relationship: relationship.name) }
                    touched.insert(entity.name, previousOwner)
                }
            }
        case .joinTable:
            preconditionFailure("to-one \(relationship.qualifiedName) stored in a join table")
        }
    }

    func setToMany(
        _ entity: EntityDescription, id: Int64, relationship: RelationshipDescription, targets: [Int64],
        touched: inout TouchedObjects
    ) throws {
        let destination = relationship.destination
        let array = SQLiteStoreContext.idArray(targets)
        let inverse = model.inverse(of: relationship)
        switch schema.storage(of: relationship) {
        case let .foreignKeyOnDestination(column, position):
            let table = quoted(destination)
            let fk = quoted(column)
            var removed: [Int64] = []
            try connection.forEachRow(
                "SELECT \"_id\" FROM \(table) WHERE \(fk) = ? AND \"_id\" NOT IN (\(SQLiteStoreContext.idsFromArray))", [.integer(id), array]
            ) {
                removed.append($0.int64(0))
            }
            if !removed.isEmpty, let inverse, !inverse.isOptional {
                throw StoreError.requiredRelationship(entity: destination, relationship: inverse.name)
            }
            // Destinations taken from another owner change that owner's list too.
            var previousOwners: [Int64] = []
            try connection.forEachRow(
                "SELECT DISTINCT \(fk) FROM \(table) WHERE \"_id\" IN (\(SQLiteStoreContext.idsFromArray)) AND \(fk) IS NOT NULL AND \(fk) <> ?",
                [array, .integer(id)]
            ) {
                previousOwners.append($0.int64(0))
            }
            let positionReset = position.map { ", \(quoted($0)) = NULL" } ?? ""
            try connection.execute(
                "UPDATE \(table) SET \(fk) = NULL\(positionReset) WHERE \(fk) = ? AND \"_id\" NOT IN (\(SQLiteStoreContext.idsFromArray))",
                [.integer(id), array])
            let positionSet = position.map { ", \(quoted($0)) = (SELECT key FROM json_each(?2) WHERE value = \(table).\"_id\")" } ?? ""
            try connection.execute("UPDATE \(table) SET \(fk) = ?1\(positionSet) WHERE \"_id\" IN (SELECT value FROM json_each(?2))", [.integer(id), array])
            touched.insert(destination, contentsOf: removed)
            touched.insert(destination, contentsOf: targets)
            touched.insert(entity.name, contentsOf: previousOwners)
        case let .joinTable(tableName, sourceColumn, destinationColumn, position):
            let table = quoted(tableName)
            let source = quoted(sourceColumn)
            let target = quoted(destinationColumn)
            let description = schema.joinTables.first { $0.name == tableName }!
            // The other side's position column, when the inverse is ordered: new links join its end.
            let otherPosition = sourceColumn == "src" ? description.destinationPositionColumn : description.sourcePositionColumn
            var removed: [Int64] = []
            try connection.forEachRow(
                "SELECT \(target) FROM \(table) WHERE \(source) = ? AND \(target) NOT IN (\(SQLiteStoreContext.idsFromArray))", [.integer(id), array]
            ) {
                removed.append($0.int64(0))
            }
            var existing: Set<Int64> = []
            try connection.forEachRow("SELECT \(target) FROM \(table) WHERE \(source) = ?", [.integer(id)]) { existing.insert($0.int64(0)) }
            try connection.execute("DELETE FROM \(table) WHERE \(source) = ? AND \(target) NOT IN (\(SQLiteStoreContext.idsFromArray))", [.integer(id), array])
            var columns = [source, target]
            var selects = ["?1", "value"]
            if let position { columns.append(quoted(position)); selects.append("key") }
            if let otherPosition {
                columns.append(quoted(otherPosition))
                selects.append("(SELECT coalesce(max(\(quoted(otherPosition))), -1) + 1 FROM \(table) WHERE \(target) = value)")
            }
            try connection.execute(
                "INSERT OR IGNORE INTO \(table) (\(columns.joined(separator: ", "))) SELECT \(selects.joined(separator: ", ")) FROM json_each(?2)",
                [.integer(id), array])
            if let position {
                try connection.execute(
                    "UPDATE \(table) SET \(quoted(position)) = (SELECT key FROM json_each(?2) WHERE value = \(table).\(target)) WHERE \(source) = ?1",
                    [.integer(id), array])
            }
            if relationship.isSelfInverse {
                // A self-inverse to-many (`Person.friends`) stores each pair in both directions, so
                // a read from either object finds the other: mirror the removals and additions.
                // A mirrored link joins the end of the other object's ordered list.
                try connection.execute(
                    "DELETE FROM \(table) WHERE \(target) = ? AND \(source) NOT IN (\(SQLiteStoreContext.idsFromArray))", [.integer(id), array])
                var mirrorColumns = [source, target]
                var mirrorSelects = ["value", "?1"]
                if let position {
                    mirrorColumns.append(quoted(position))
                    mirrorSelects.append("(SELECT coalesce(max(\(quoted(position))), -1) + 1 FROM \(table) WHERE \(source) = value)")
                }
                try connection.execute(
                    "INSERT OR IGNORE INTO \(table) (\(mirrorColumns.joined(separator: ", "))) SELECT \(mirrorSelects.joined(separator: ", ")) FROM json_each(?2)",
                    [.integer(id), array])
            }
            if inverse != nil {
                touched.insert(destination, contentsOf: removed)
                touched.insert(destination, contentsOf: targets.filter { !existing.contains($0) })
            }
        case .foreignKeyOnSource:
            preconditionFailure("to-many \(relationship.qualifiedName) stored as a column on its source")
        }
    }
}
