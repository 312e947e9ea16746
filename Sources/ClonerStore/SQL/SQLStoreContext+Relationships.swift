import ClonerModel
import Foundation

/// Relationship edits, the same statements on every backend: each edit is a fixed number of
/// statements however long its list (the list is bound as one parameter), and a statement that
/// would change nothing is not sent.
extension SQLStoreContext {
    private func column(of table: String, _ column: String, id: Int64) throws -> Int64? {
        try connection.int64("SELECT \(quoted(column)) FROM \(quoted(table)) WHERE \"_id\" = \(Dialect.parameter(1))", arguments: [.integer(id)])
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
        let current = try self.column(of: entity.name, column, id: id)
        guard current != target else { return }
        let targetCurrent = try target.flatMap { try self.column(of: entity.name, column, id: $0) }
        let partners = Set([id, current, target, targetCurrent].compactMap { $0 })
        let leftAlone = [current, targetCurrent].compactMap { $0 }.filter { $0 != id && $0 != target }
        if !leftAlone.isEmpty && !relationship.isOptional {
            throw StoreError.requiredRelationship(entity: entity.name, relationship: relationship.name)
        }
        try connection.perform("UPDATE \(table) SET \(quoted(column)) = NULL WHERE \"_id\" \(Dialect.among(1))", arguments: [.ids(partners.sorted())])
        if let target {
            let (first, second) = (Dialect.parameter(1), Dialect.parameter(2))
            try connection.perform("UPDATE \(table) SET \(quoted(column)) = \(second) WHERE \"_id\" = \(first)", arguments: [.integer(id), .integer(target)])
            try connection.perform("UPDATE \(table) SET \(quoted(column)) = \(first) WHERE \"_id\" = \(second)", arguments: [.integer(id), .integer(target)])
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
        let (first, second) = (Dialect.parameter(1), Dialect.parameter(2))
        switch schema.storage(of: relationship) {
        case .foreignKeyOnSource(let column):
            let table = quoted(entity.name)
            let current = try self.column(of: entity.name, column, id: id)
            guard current != target else { return }
            let foreignKey = schema.foreignKeys[entity.name]!.first { $0.column == column }!
            if foreignKey.isUnique, let target {
                // One-to-one: the destination leaves its previous owner.
                let holders = try connection.int64s(
                    "SELECT \"_id\" FROM \(table) WHERE \(quoted(column)) = \(first) AND \"_id\" <> \(second)", arguments: [.integer(target), .integer(id)])
                if !holders.isEmpty && !relationship.isOptional {
                    throw StoreError.requiredRelationship(entity: entity.name, relationship: relationship.name)
                }
                if !holders.isEmpty {
                    try connection.perform(
                        "UPDATE \(table) SET \(quoted(column)) = NULL WHERE \(quoted(column)) = \(first) AND \"_id\" <> \(second)",
                        arguments: [.integer(target), .integer(id)])
                }
                touched.insert(entity.name, contentsOf: holders)
            }
            let value: SQLArgument = target.map(SQLArgument.integer) ?? .null
            let newTarget = Dialect.integer(1)
            if let position = foreignKey.positionColumn {
                // Joining an ordered list from the to-one side appends at the end, as Core Data does
                // (after every part's objects where the list is declared into a hierarchy).
                let end = schema.orderedListEnd(joinedBy: relationship, table: entity.name, column: column, position: position, owner: newTarget)
                try connection.perform(
                    """
                    UPDATE \(table) SET \(quoted(column)) = \(newTarget), \(quoted(position)) = \(end) + 1 \
                    WHERE "_id" = \(second)
                    """, arguments: [value, .integer(id)])
            } else {
                try connection.perform("UPDATE \(table) SET \(quoted(column)) = \(newTarget) WHERE \"_id\" = \(second)", arguments: [value, .integer(id)])
            }
            if relationship.hasInverse {
                touched.insert(destination, current)
                touched.insert(destination, target)
            }
        case .foreignKeyOnDestination(let column, _):
            // The other side of a one-to-one holds the column.
            let table = quoted(destination)
            let current = try connection.int64("SELECT \"_id\" FROM \(table) WHERE \(quoted(column)) = \(first)", arguments: [.integer(id)])
            guard current != target else { return }
            if let current {
                if let inverse = model.inverse(of: relationship), !inverse.isOptional {
                    throw StoreError.requiredRelationship(entity: destination, relationship: inverse.name)
                }
                try connection.perform("UPDATE \(table) SET \(quoted(column)) = NULL WHERE \"_id\" = \(first)", arguments: [.integer(current)])
                touched.insert(destination, current)
            }
            if let target {
                let previousOwner = try self.column(of: destination, column, id: target)
                try connection.perform(
                    "UPDATE \(table) SET \(quoted(column)) = \(first) WHERE \"_id\" = \(second)", arguments: [.integer(id), .integer(target)])
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
        _ entity: EntityDescription, id: Int64, relationship: RelationshipDescription, targets: [Int64], places: [Int64]?,
        touched: inout TouchedObjects
    ) throws {
        precondition(places == nil || places?.count == targets.count, "\(relationship.qualifiedName): one place per target")
        let destination = relationship.destination
        let owner = SQLArgument.integer(id), list = SQLArgument.ids(targets)
        let inverse = model.inverse(of: relationship)
        let (first, ownerValue) = (Dialect.parameter(1), Dialect.integer(1))
        let listed = Dialect.listed(2), listedID = Dialect.listedID
        // A part of a list declared into a hierarchy takes its places in the whole list (parameter 3).
        let listedPlace = places == nil ? Dialect.listedPlace : Dialect.listedPlace(in: 3)
        let placed: [SQLArgument] = places.map { [owner, list, .ids($0)] } ?? [owner, list]
        switch schema.storage(of: relationship) {
        case let .foreignKeyOnDestination(column, position):
            let table = quoted(destination)
            let fk = quoted(column)
            let removed = try connection.int64s(
                "SELECT \"_id\" FROM \(table) WHERE \(fk) = \(first) AND \"_id\" \(Dialect.notInList(2))", arguments: [owner, list])
            if !removed.isEmpty, let inverse, !inverse.isOptional {
                throw StoreError.requiredRelationship(entity: destination, relationship: inverse.name)
            }
            // Destinations taken from another owner change that owner's list too.
            let previousOwners = try connection.int64s(
                "SELECT DISTINCT \(fk) FROM \(table) WHERE \"_id\" \(Dialect.among(1)) AND \(fk) IS NOT NULL AND \(fk) <> \(Dialect.parameter(2))",
                arguments: [list, owner])
            if !removed.isEmpty {
                let positionReset = position.map { ", \(quoted($0)) = NULL" } ?? ""
                try connection.perform(
                    "UPDATE \(table) SET \(fk) = NULL\(positionReset) WHERE \(fk) = \(first) AND \"_id\" \(Dialect.notInList(2))", arguments: [owner, list])
            }
            if !targets.isEmpty {
                if let position {
                    try connection.perform(
                        "UPDATE \(table) AS t SET \(fk) = \(first), \(quoted(position)) = \(listedPlace) FROM \(listed) WHERE t.\"_id\" = \(listedID)",
                        arguments: placed)
                } else {
                    try connection.perform("UPDATE \(table) SET \(fk) = \(first) WHERE \"_id\" \(Dialect.among(2))", arguments: [owner, list])
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
            let existing = Set(try connection.int64s("SELECT \(target) FROM \(table) WHERE \(source) = \(first)", arguments: [owner]))
            let wanted = Set(targets)
            let removed = existing.filter { !wanted.contains($0) }.sorted()
            if !removed.isEmpty {
                try connection.perform(
                    "DELETE FROM \(table) WHERE \(source) = \(first) AND \(target) \(Dialect.among(2))", arguments: [owner, .ids(removed)])
            }
            if !targets.isEmpty {
                var columns = [source, target]
                var selects = [ownerValue, listedID]
                if let position {
                    columns.append(quoted(position))
                    selects.append(listedPlace)
                }
                if let otherPosition {
                    columns.append(quoted(otherPosition))
                    // After every part's rows where the other side's list is declared into a hierarchy.
                    if let end = inverse.flatMap({ schema.hierarchyListEnd(of: $0, owner: listedID) }) {
                        selects.append("\(end) + 1")
                    } else {
                        selects.append("(SELECT coalesce(max(x.\(quoted(otherPosition))), -1) + 1 FROM \(table) AS x WHERE x.\(target) = \(listedID))")
                    }
                }
                try connection.perform(
                    Dialect.insertSkippingDuplicates(
                        into: table, columns: columns, select: "SELECT \(selects.joined(separator: ", ")) FROM \(listed)"),
                    arguments: position == nil ? [owner, list] : placed)
                if let position {
                    // Links kept from before take their place in the new order too.
                    try connection.perform(
                        """
                        UPDATE \(table) AS t SET \(quoted(position)) = \(listedPlace) \
                        FROM \(listed) WHERE t.\(source) = \(first) AND t.\(target) = \(listedID)
                        """, arguments: placed)
                }
            }
            if relationship.isSelfInverse {
                // A self-inverse to-many (`Person.friends`) stores each pair in both directions, so
                // a read from either object finds the other: mirror the removals and additions.
                // A mirrored link joins the end of the other object's ordered list.
                try connection.perform("DELETE FROM \(table) WHERE \(target) = \(first) AND \(source) \(Dialect.notInList(2))", arguments: [owner, list])
                if !targets.isEmpty {
                    var mirrorColumns = [source, target]
                    var mirrorSelects = [listedID, ownerValue]
                    if let position {
                        mirrorColumns.append(quoted(position))
                        mirrorSelects.append("(SELECT coalesce(max(x.\(quoted(position))), -1) + 1 FROM \(table) AS x WHERE x.\(source) = \(listedID))")
                    }
                    try connection.perform(
                        Dialect.insertSkippingDuplicates(
                            into: table, columns: mirrorColumns, select: "SELECT \(mirrorSelects.joined(separator: ", ")) FROM \(listed)"),
                        arguments: [owner, list])
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
