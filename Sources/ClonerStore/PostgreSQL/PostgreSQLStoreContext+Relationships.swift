import ClonerModel
import Foundation

extension PostgreSQLStoreContext {
    func checkExist(_ entity: EntityDescription, _ relationship: RelationshipDescription, _ ids: [Int64]) throws {
        guard !ids.isEmpty else { return }
        let found = try existingIDs(entity: relationship.destination, ids: ids)
        if found.count != Set(ids).count {
            let missing = ids.first { !found.contains($0) } ?? ids[0]
            throw StoreError.danglingReference(entity: entity.name, relationship: relationship.name, id: missing)
        }
    }

    private func column(of table: String, _ column: String, id: Int64) throws -> Int64? {
        try scalarInt64("SELECT \(quoted(column)) FROM \(quoted(table)) WHERE \"_id\" = $1", [.int8(id)])
    }

    /// A one-to-one that is its own inverse (`Person.spouse`) keeps both directions in its column:
    /// setting `a.spouse = b` clears the previous partners of both, then points `a` and `b` at
    /// each other, as Core Data does.
    private func setSelfInverseToOne(
        _ entity: EntityDescription, id: Int64, relationship: RelationshipDescription, column: String,
        target: Int64?, touched: inout TouchedObjects
    ) throws {
        let table = quoted(entity.name)
        let current = try self.column(of: entity.name, column, id: id)
        guard current != target else { return }
        let targetCurrent = try target.flatMap { try self.column(of: entity.name, column, id: $0) }
        let partners = Set([id, current, target, targetCurrent].compactMap { $0 })
        let leftAlone = [current, targetCurrent].compactMap { $0 }.filter { $0 != id && $0 != target }
        if !leftAlone.isEmpty && !relationship.isOptional {
            throw StoreError.requiredRelationship(entity: entity.name, relationship: relationship.name)
        }
        try run("UPDATE \(table) SET \(quoted(column)) = NULL WHERE \"_id\" = ANY($1)", [Self.idArray(partners.sorted())])
        if let target {
            try run("UPDATE \(table) SET \(quoted(column)) = $2 WHERE \"_id\" = $1", [.int8(id), .int8(target)])
            try run("UPDATE \(table) SET \(quoted(column)) = $1 WHERE \"_id\" = $2", [.int8(id), .int8(target)])
        }
        touched.insert(entity.name, contentsOf: partners.sorted())
    }

    func setToOne(
        _ entity: EntityDescription, id: Int64, relationship: RelationshipDescription, target: Int64?,
        touched: inout TouchedObjects
    ) throws {
        let destination = relationship.destination
        if relationship.isSelfInverse, case .foreignKeyOnSource(let column) = schema.storage(of: relationship) {
            return try setSelfInverseToOne(entity, id: id, relationship: relationship, column: column, target: target, touched: &touched)
        }
        switch schema.storage(of: relationship) {
        case .foreignKeyOnSource(let column):
            let table = quoted(entity.name)
            let current = try self.column(of: entity.name, column, id: id)
            guard current != target else { return }
            let foreignKey = schema.foreignKeys[entity.name]!.first { $0.column == column }!
            if foreignKey.isUnique, let target {
                // One-to-one: the destination leaves its previous owner.
                var holders: [Int64] = []
                try run("SELECT \"_id\" FROM \(table) WHERE \(quoted(column)) = $1 AND \"_id\" <> $2", [.int8(target), .int8(id)]).forEachRow {
                    holders.append($0.int64(0))
                }
                if !holders.isEmpty && !relationship.isOptional {
                    throw StoreError.requiredRelationship(entity: entity.name, relationship: relationship.name)
                }
                if !holders.isEmpty {
                    try run("UPDATE \(table) SET \(quoted(column)) = NULL WHERE \(quoted(column)) = $1 AND \"_id\" <> $2", [.int8(target), .int8(id)])
                }
                touched.insert(entity.name, contentsOf: holders)
            }
            let value: PostgreSQLValue = target.map(PostgreSQLValue.int8) ?? .null
            if let position = foreignKey.positionColumn {
                // Joining an ordered list from the to-one side appends at the end, as Core Data does.
                try run(
                    """
                    UPDATE \(table) SET \(quoted(column)) = $1::int8,
                      \(quoted(position)) = (SELECT coalesce(max(\(quoted(position))), -1) + 1 FROM \(table) WHERE \(quoted(column)) = $1::int8)
                    WHERE "_id" = $2
                    """, [value, .int8(id)])
            } else {
                try run("UPDATE \(table) SET \(quoted(column)) = $1::int8 WHERE \"_id\" = $2", [value, .int8(id)])
            }
            if relationship.hasInverse {
                touched.insert(destination, current)
                touched.insert(destination, target)
            }
        case .foreignKeyOnDestination(let column, _):
            // The other side of a one-to-one holds the column.
            let table = quoted(destination)
            let current = try scalarInt64("SELECT \"_id\" FROM \(table) WHERE \(quoted(column)) = $1", [.int8(id)])
            guard current != target else { return }
            if let current {
                if let inverse = model.inverse(of: relationship), !inverse.isOptional {
                    throw StoreError.requiredRelationship(entity: destination, relationship: inverse.name)
                }
                try run("UPDATE \(table) SET \(quoted(column)) = NULL WHERE \"_id\" = $1", [.int8(current)])
                touched.insert(destination, current)
            }
            if let target {
                let previousOwner = try self.column(of: destination, column, id: target)
                try run("UPDATE \(table) SET \(quoted(column)) = $1 WHERE \"_id\" = $2", [.int8(id), .int8(target)])
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
        let array = Self.idArray(targets)
        let inverse = model.inverse(of: relationship)
        switch schema.storage(of: relationship) {
        case let .foreignKeyOnDestination(column, position):
            let table = quoted(destination)
            let fk = quoted(column)
            var removed: [Int64] = []
            try run("SELECT \"_id\" FROM \(table) WHERE \(fk) = $1 AND \"_id\" NOT IN (SELECT unnest($2::int8[]))", [.int8(id), array]).forEachRow {
                removed.append($0.int64(0))
            }
            if !removed.isEmpty, let inverse, !inverse.isOptional {
                throw StoreError.requiredRelationship(entity: destination, relationship: inverse.name)
            }
            // Destinations taken from another owner change that owner's list too.
            var previousOwners: [Int64] = []
            try run("SELECT DISTINCT \(fk) FROM \(table) WHERE \"_id\" = ANY($1) AND \(fk) IS NOT NULL AND \(fk) <> $2", [array, .int8(id)]).forEachRow {
                previousOwners.append($0.int64(0))
            }
            if !removed.isEmpty {
                let positionReset = position.map { ", \(quoted($0)) = NULL" } ?? ""
                try run("UPDATE \(table) SET \(fk) = NULL\(positionReset) WHERE \(fk) = $1 AND \"_id\" NOT IN (SELECT unnest($2::int8[]))", [.int8(id), array])
            }
            if !targets.isEmpty {
                if let position {
                    try run(
                        """
                        UPDATE \(table) AS t SET \(fk) = $1, \(quoted(position)) = a.ord - 1
                        FROM unnest($2::int8[]) WITH ORDINALITY AS a(id, ord) WHERE t."_id" = a.id
                        """, [.int8(id), array])
                } else {
                    try run("UPDATE \(table) SET \(fk) = $1 WHERE \"_id\" = ANY($2)", [.int8(id), array])
                }
            }
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
            var existing: Set<Int64> = []
            try run("SELECT \(target) FROM \(table) WHERE \(source) = $1", [.int8(id)]).forEachRow { existing.insert($0.int64(0)) }
            let wanted = Set(targets)
            removed = existing.filter { !wanted.contains($0) }.sorted()
            if !removed.isEmpty {
                try run("DELETE FROM \(table) WHERE \(source) = $1 AND \(target) = ANY($2)", [.int8(id), Self.idArray(removed)])
            }
            if !targets.isEmpty {
                var columns = [source, target]
                var selects = ["$1::int8", "a.id"]
                if let position { columns.append(quoted(position)); selects.append("a.ord - 1") }
                if let otherPosition {
                    columns.append(quoted(otherPosition))
                    selects.append("(SELECT coalesce(max(x.\(quoted(otherPosition))), -1) + 1 FROM \(table) AS x WHERE x.\(target) = a.id)")
                }
                try run(
                    """
                    INSERT INTO \(table) (\(columns.joined(separator: ", "))) SELECT \(selects.joined(separator: ", "))
                    FROM unnest($2::int8[]) WITH ORDINALITY AS a(id, ord) ON CONFLICT DO NOTHING
                    """, [.int8(id), array])
                if let position {
                    try run(
                        """
                        UPDATE \(table) AS t SET \(quoted(position)) = a.ord - 1
                        FROM unnest($2::int8[]) WITH ORDINALITY AS a(id, ord) WHERE t.\(source) = $1 AND t.\(target) = a.id
                        """, [.int8(id), array])
                }
            }
            if relationship.isSelfInverse {
                // A self-inverse to-many (`Person.friends`) stores each pair in both directions:
                // mirror the removals and additions; a mirrored link joins the end of the other
                // object's ordered list.
                try run("DELETE FROM \(table) WHERE \(target) = $1 AND \(source) NOT IN (SELECT unnest($2::int8[]))", [.int8(id), array])
                if !targets.isEmpty {
                    var mirrorColumns = [source, target]
                    var mirrorSelects = ["a.id", "$1::int8"]
                    if let position {
                        mirrorColumns.append(quoted(position))
                        mirrorSelects.append("(SELECT coalesce(max(x.\(quoted(position))), -1) + 1 FROM \(table) AS x WHERE x.\(source) = a.id)")
                    }
                    try run(
                        """
                        INSERT INTO \(table) (\(mirrorColumns.joined(separator: ", "))) SELECT \(mirrorSelects.joined(separator: ", "))
                        FROM unnest($2::int8[]) AS a(id) ON CONFLICT DO NOTHING
                        """, [.int8(id), array])
                }
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
