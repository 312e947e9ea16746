import ClonerModel
import Foundation

extension SQLiteStoreContext {
    /// The objects matching a request, in its order, each with its position in that order (its
    /// sort-key values and `_id`) for a cursor that continues after it: one query.
    public func fetchPositions(_ request: FetchRequest) throws -> [(id: Int64, position: FetchRequest.Position)] {
        let query = try pageQuery(request, limit: request.limit, withRecords: false)
        var rows: [(id: Int64, position: FetchRequest.Position)] = []
        let last = Int32(query.sortColumns - 1)
        try query.statement.forEachRow(query.values) { row in
            rows.append((id: row.int64(last), position: FetchRequest.Position(values: (0...last).map { row[$0].positionValue })))
        }
        return rows
    }

    /// The SELECT of a page of `request` and its values: its sort columns with `_id` last
    /// (`sortColumns` of them), then with `withRecords` the record's columns (`SQLiteReadSQL`);
    /// the filters, the keyset condition after its cursor, the order and `limit`. The statement is
    /// kept per shape of request on the connection, so only the values are worked out per call.
    /// Throws `StoreError.notFound` for an `after` that names a missing record under an order
    /// other than `_id`.
    func pageQuery(_ request: FetchRequest, limit: Int?, withRecords: Bool) throws -> (statement: SQLiteStatement, values: [SQLiteValue], sortColumns: Int) {
        let entity = entity(request.entity)
        let sortCount = request.sort.count + 1
        var cursor: [SQLiteValue]?
        if let position = request.position {
            precondition(position.values.count == sortCount, "a position of \(position.values.count) values for \(sortCount) sort keys")
            cursor = position.values.map(SQLiteValue.init)
        } else if let after = request.after {
            if sortCount == 1 {
                // Ordered by `_id` alone, the `_id` is the whole position: no row needed.
                cursor = [.integer(after)]
            } else {
                let columns = try request.sort.map { quoted(try filterColumn(entity, $0.key)) } + [quoted("_id")]
                let select = "SELECT " + columns.joined(separator: ", ") + " FROM \(quoted(entity.name)) WHERE \"_id\" = ?"
                try connection.forEachRow(select, [.integer(after)]) { row in
                    cursor = (0..<Int32(sortCount)).map { row[$0] }
                }
                guard cursor != nil else { throw StoreError.notFound(entity: entity.name, id: after) }
            }
        }
        let shape = SQLitePageShape(
            entity: entity.name,
            predicates: request.predicates.map { .init(property: $0.property, isNull: $0.value.isNull) },
            sort: request.sort,
            cursorNulls: cursor?.map { $0 == .null },
            limited: limit != nil, withRecords: withRecords)
        let statement = try connection.statement(for: shape) { try pageSQL(shape, entity) }
        // The values in the order of the SQL's parameters (see `pageSQL`).
        var values: [SQLiteValue] = []
        values.reserveCapacity(request.predicates.count + (cursor?.count ?? 0) * 2 + 1)
        for predicate in request.predicates where !predicate.value.isNull {
            values.append(predicate.value.blobKeyed.sqlValue)
        }
        if let cursor {
            for index in 0..<sortCount {
                if cursor[index] != .null { values.append(cursor[index]) }
                if index < sortCount - 1 { values.append(cursor[index]) }
            }
        }
        if let limit { values.append(.integer(Int64(limit))) }
        return (statement, values, sortCount)
    }

    /// The SQL text of a page query's shape: parameters for the non-NULL filters, then per sort
    /// key its cursor value unless NULL (after it) and again for all but the last (equal to it),
    /// then the limit.
    private func pageSQL(_ shape: SQLitePageShape, _ entity: EntityDescription) throws -> String {
        var conditions: [String] = []
        for predicate in shape.predicates {
            let column = quoted(try filterColumn(entity, predicate.property))
            conditions.append(predicate.isNull ? "\(column) IS NULL" : "\(column) = ?")
        }
        var sort = try shape.sort.map { (column: try filterColumn(entity, $0.key), ascending: $0.ascending) }
        sort.append((column: "_id", ascending: true))
        if let cursorNulls = shape.cursorNulls {
            // Keyset pagination: rows strictly after the cursor's place in the order, NULL sorting
            // first ascending and last descending as SQLite does, so no row is skipped or repeated
            // when rows change between pages.
            // Nested, `after(k) OR (equal(k) AND (…))`, so the condition grows linearly with
            // the keys (each cursor value bound twice at most), not with their square.
            var condition = ""
            for index in sort.indices.reversed() {
                let column = quoted(sort[index].column)
                let after =
                    switch (sort[index].ascending, cursorNulls[index]) {
                    case (true, true): "\(column) IS NOT NULL"
                    case (true, false): "\(column) > ?"
                    case (false, true): "0"
                    case (false, false): "(\(column) < ? OR \(column) IS NULL)"
                    }
                condition = condition.isEmpty ? "(\(after))" : "(\(after) OR (\(column) IS ? AND \(condition)))"
            }
            conditions.append(condition)
        }
        var sql = "SELECT " + sort.map { quoted($0.column) }.joined(separator: ", ")
        if shape.withRecords { sql += ", " + readSQL.reads(entity.name).columns }
        sql += " FROM \(quoted(entity.name))"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " ORDER BY " + sort.map { quoted($0.column) + ($0.ascending ? " ASC" : " DESC") }.joined(separator: ", ")
        if shape.limited { sql += " LIMIT ?" }
        return sql
    }

    private func filterColumn(_ entity: EntityDescription, _ property: String) throws -> String {
        if property == "_id" || property == "_version" { return property }
        if entity.attribute(named: property) != nil { return property }
        if let relationship = entity.relationship(named: property), case .foreignKeyOnSource(let column) = schema.storage(of: relationship) {
            return column
        }
        if entity.relationship(named: property) != nil {
            throw StoreError.invalidValue(
                entity: entity.name, property: property, reason: "only attributes and to-one relationships stored on this entity can filter or sort")
        }
        throw StoreError.unknownProperty(entity: entity.name, property: property)
    }

    /// Destination `_id`s of one relationship for many sources at once, in order when ordered,
    /// else by `_id`.
    public func destinationIDs(of relationship: RelationshipDescription, for sources: [Int64]) throws -> [Int64: [Int64]] {
        guard !sources.isEmpty else { return [:] }
        let sql = SQLiteReadSQL.destinations(schema.join(for: relationship), sources: "IN (\(SQLiteStoreContext.idsFromArray))")
        var result: [Int64: [Int64]] = [:]
        try connection.forEachRow(sql, [SQLiteStoreContext.idArray(sources)]) { row in
            result[row.int64(0), default: []].append(row.int64(1))
        }
        return result
    }
}
