import ClonerModel
import Foundation

extension PostgreSQLStoreContext {
    /// Rows per multi-row INSERT, and the parameter bytes one may carry, so a huge nested body
    /// or a few large blobs never build one oversized message.
    static let insertBatchRows = 5_000
    static let insertBatchBytes = 32 << 20

    /// Applies a change set as the SQLite store does, once the objects it names are locked
    /// (`lockRows(of:)`) — the same checks in the same order, so
    /// the same change set gets the same answer — with inserts made set-wise: the `_id`s of each
    /// entity's new rows come from its identity sequence in one statement, which lets a nested
    /// graph's parent links be written with the rows, and then one multi-row INSERT per entity
    /// (`unnest` of one array per column) makes them all.
    func save(_ changes: ChangeSet) throws -> SaveResult {
        var touched = TouchedObjects()
        try lockRows(of: changes)
        for insert in changes.inserts {
            try checkKnown(entity(insert.entity), attributes: insert.attributes.keys, relationships: insert.relationships.keys)
        }
        let plan = InsertLinkPlan(changes, model: model, schema: schema)
        var rowValues: [[PostgreSQLValue]] = []
        rowValues.reserveCapacity(changes.inserts.count)
        for insert in changes.inserts {
            rowValues.append(try attributeValues(entity(insert.entity), insert.attributes))
        }
        let insertedIDs = try allocateIDs(changes.inserts)
        try insertRows(changes.inserts, ids: insertedIDs, values: rowValues, plan: plan)

        let deletedCounts = try applyAfterInserts(changes, insertedIDs: insertedIDs, handledAtInsert: plan.handled, touched: &touched)
        return SaveResult(insertedIDs: insertedIDs, deletedCounts: deletedCounts)
    }

    /// New `_id`s for every insert, from each entity's identity sequence: one statement per
    /// entity, ascending in insert order as SQLite's would be.
    private func allocateIDs(_ inserts: [ChangeSet.Insert]) throws -> [Int64] {
        var indicesByEntity: [String: [Int]] = [:]
        for (index, insert) in inserts.enumerated() { indicesByEntity[insert.entity, default: []].append(index) }
        var ids = [Int64](repeating: 0, count: inserts.count)
        for (entity, indices) in indicesByEntity.sorted(by: { $0.key < $1.key }) {
            var allocated: [Int64] = []
            allocated.reserveCapacity(indices.count)
            try run(
                "SELECT nextval(pg_get_serial_sequence($1, '_id')) FROM generate_series(1, $2)",
                [.text(quoted(entity)), .int8(Int64(indices.count))]
            ).forEachRow { allocated.append($0.int64(0)) }
            allocated.sort()
            for (index, id) in zip(indices, allocated) { ids[index] = id }
        }
        return ids
    }

    /// One multi-row INSERT per entity (per batch): `_id`, the attribute columns in model order,
    /// then each link column (and its position) the insert plan writes for the entity.
    private func insertRows(_ inserts: [ChangeSet.Insert], ids: [Int64], values: [[PostgreSQLValue]], plan: InsertLinkPlan) throws {
        var indicesByEntity: [String: [Int]] = [:]
        for (index, insert) in inserts.enumerated() { indicesByEntity[insert.entity, default: []].append(index) }
        for (name, indices) in indicesByEntity.sorted(by: { $0.key < $1.key }) {
            let entity = entity(name)
            let links = plan.columns[name] ?? []
            var columns = ["_id"] + entity.attributes.map(\.name)
            var elements: [PostgreSQLValue.ArrayElement] = [.int8] + entity.attributes.map { Self.arrayElement($0.type) }
            for link in links {
                columns.append(link.column)
                elements.append(.int8)
                if let position = link.positionColumn {
                    columns.append(position)
                    elements.append(.int8)
                }
            }
            let sql =
                "INSERT INTO \(quoted(name)) (" + columns.map(quoted).joined(separator: ", ") + ") SELECT * FROM unnest("
                + elements.indices.map { "$\($0 + 1)" }.joined(separator: ", ") + ")"

            var batch = [[PostgreSQLValue]](repeating: [], count: columns.count)
            var batchRows = 0, batchBytes = 0
            func flush() throws {
                guard batchRows > 0 else { return }
                try run(sql, zip(elements, batch).map { PostgreSQLValue.array(element: $0, $1) })
                batch = [[PostgreSQLValue]](repeating: [], count: columns.count)
                batchRows = 0
                batchBytes = 0
            }
            for index in indices {
                let row: [PostgreSQLValue] =
                    [.int8(ids[index])] + values[index]
                    + plan.linkValues(of: index, columns: links) { ids[$0] }.map { $0.map(PostgreSQLValue.int8) ?? .null }
                let bytes = row.reduce(0) { $0 + Self.approximateSize($1) }
                if batchRows > 0 && (batchRows >= Self.insertBatchRows || batchBytes + bytes > Self.insertBatchBytes) { try flush() }
                for (column, value) in row.enumerated() { batch[column].append(value) }
                batchRows += 1
                batchBytes += bytes
            }
            try flush()
        }
    }

    private static func approximateSize(_ value: PostgreSQLValue) -> Int {
        switch value {
        case .text(let v), .json(let v): return v.utf8.count + 4
        case .bytea(let v): return v.count + 4
        default: return 12
        }
    }

    /// Compared as stored: text by its bytes (Swift's `==` would take "é" and "e\u{301}" as equal).
    func storesSame(_ value: AttributeValue, _ current: AttributeValue) -> Bool {
        Self.isSameStored(value, current)
    }

    private static func isSameStored(_ left: AttributeValue, _ right: AttributeValue) -> Bool {
        switch (left, right) {
        case (.string(let a), .string(let b)), (.json(let a), .json(let b)): return a.utf8.elementsEqual(b.utf8)
        default: return left == right
        }
    }

    /// The values of an insert's attribute columns, in model order: given, else default, else null.
    private func attributeValues(_ entity: EntityDescription, _ given: [String: AttributeValue]) throws -> [PostgreSQLValue] {
        var values: [PostgreSQLValue] = []
        values.reserveCapacity(entity.attributes.count)
        for attribute in entity.attributes {
            let value = try insertValue(attribute, given: given, entity: entity)
            values.append(try storedValue(value, entity: entity.name, attribute: attribute.name))
        }
        return values
    }
}
