import ClonerModel
import Foundation

extension SQLiteStoreContext {
    /// Applies a change set: inserts, updates (with optimistic version checks), relationship edits
    /// with their inverses, and deletes with the model's delete rules. Run it inside
    /// `IncrementalStore.write`, whose transaction makes it all-or-nothing.
    public func save(_ changes: ChangeSet) throws -> SaveResult {
        var touched = TouchedObjects()
        var insertedIDs: [Int64] = []
        insertedIDs.reserveCapacity(changes.inserts.count)

        for insert in changes.inserts {
            try checkKnown(entity(insert.entity), attributes: insert.attributes.keys, relationships: insert.relationships.keys)
        }
        // A nested graph's parent links are written with the rows (see InsertLinkPlan): one
        // prepared INSERT per entity stepped per row, positions computed here.
        let plan = InsertLinkPlan(changes, model: model, schema: schema)
        var insertSQL: [String: String] = [:]
        for (index, insert) in changes.inserts.enumerated() {
            let entity = entity(insert.entity)
            let columns = plan.columns[entity.name] ?? []
            let sql = insertSQL[entity.name] ?? insertStatement(entity, linkColumns: columns)
            insertSQL[entity.name] = sql
            var values = try attributeValues(entity, insert.attributes)
            values += plan.linkValues(of: index, columns: columns) { insertedIDs[$0] }.map { $0.map(SQLiteValue.integer) ?? .null }
            try connection.execute(sql, values)
            insertedIDs.append(connection.lastInsertRowID)
        }
        let deletedCounts = try applyAfterInserts(changes, insertedIDs: insertedIDs, handledAtInsert: plan.handled, touched: &touched)
        return SaveResult(insertedIDs: insertedIDs, deletedCounts: deletedCounts)
    }

    /// Compared as stored: text by its bytes (Swift's `==` would take "é" and "e\u{301}" as equal).
    func storesSame(_ value: AttributeValue, _ current: AttributeValue) -> Bool {
        SQLiteStoreContext.isSameStored(value.sqlValue, current.sqlValue)
    }

    private static func isSameStored(_ left: SQLiteValue, _ right: SQLiteValue) -> Bool {
        switch (left, right) {
        case (.null, .null): return true
        case (.integer(let a), .integer(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.text(let a), .text(let b)): return a.utf8.elementsEqual(b.utf8)
        case (.blob(let a), .blob(let b)): return a == b
        default: return false
        }
    }

    /// The values of an insert's attribute columns, in model order: given, else default, else null.
    private func attributeValues(_ entity: EntityDescription, _ given: [String: AttributeValue]) throws -> [SQLiteValue] {
        var values: [SQLiteValue] = []
        values.reserveCapacity(entity.attributes.count + 2)
        for attribute in entity.attributes {
            values.append(try storedValue(insertValue(attribute, given: given, entity: entity)))
        }
        return values
    }

    /// The INSERT of one row: attribute columns in model order, then each link column (and its
    /// position column) the insert plan writes for this entity.
    private func insertStatement(_ entity: EntityDescription, linkColumns: [(column: String, positionColumn: String?)]) -> String {
        var columns = entity.attributes.map(\.name)
        for link in linkColumns {
            columns.append(link.column)
            if let position = link.positionColumn { columns.append(position) }
        }
        guard !columns.isEmpty else { return "INSERT INTO \(quoted(entity.name)) DEFAULT VALUES" }
        return "INSERT INTO \(quoted(entity.name)) (" + columns.map(quoted).joined(separator: ", ")
            + ") VALUES (" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
    }
}
