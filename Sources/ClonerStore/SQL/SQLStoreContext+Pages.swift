import ClonerModel
import Foundation

/// The page queries of a list, the same on every backend: the filters, the keyset condition after
/// a cursor, the order (NULL first ascending and last descending, as SQLite sorts it) and the
/// limit. The SQL text depends only on the request's shape (`FetchPageShape`), so a backend that
/// keeps statements by shape builds it once; the values are worked out per call.
extension SQLStoreContext {
    /// The objects matching a request, in its order, each with its position in that order (its
    /// sort-key values and `_id`) for a cursor that continues after it: one query.
    ///
    /// Positions carry the values in the SQLite store's storage classes (integers for integers,
    /// booleans, dates in milliseconds and references; text for strings, JSON and lower-case
    /// UUIDs; doubles; blobs), so a list cursor means the same on both backends.
    func fetchPositions(_ request: FetchRequest) throws -> [(id: Int64, position: FetchRequest.Position)] {
        let keys = try pageKeys(request)
        var rows: [(id: Int64, position: FetchRequest.Position)] = []
        try forEachPageRow(request, keys: keys, limit: request.limit, withRecords: false) { row in
            let position = FetchRequest.Position(values: keys.indices.map { Self.positionValue(row, $0, keys[$0].kind) })
            rows.append((id: row.int64(keys.count - 1), position: position))
        }
        return rows
    }

    /// A page in one query that reads the records with their sort keys (no second query by `_id`),
    /// plus one per relationship stored elsewhere for the whole page. A row's text is measured
    /// where the row holds it (`textByteCount`) before it is copied, so a page that ends at
    /// `textBytes` never copies the row it leaves for the next page.
    func fetchRecordPage(_ request: FetchRequest, pageSize: Int, inlineBinaryBytes: Int, textBytes: Int) throws -> RecordPage {
        precondition(pageSize > 0, "a page of \(pageSize) records")
        let reads = recordReads(request.entity)
        let keys = try pageKeys(request)
        var records = StoredRecords(entity: reads.entity, capacity: min(pageSize, 64))
        var lastPosition: FetchRequest.Position?
        var hasMore = false
        let sortColumns = keys.count
        let textColumns =
            textBytes < .max ? reads.entity.attributes.indices.filter { reads.entity.attributes[$0].type.isText }.map { sortColumns + 2 + $0 } : []
        var pageText = 0
        try forEachPageRow(request, keys: keys, limit: pageSize + 1, withRecords: true) { row in
            guard !hasMore else { return }
            guard records.count < pageSize else {
                // The row after the page: it only says that a next page exists.
                hasMore = true
                return
            }
            if !textColumns.isEmpty {
                let text = textColumns.reduce(0) { $0 + Self.textByteCount(row, $1) }
                if records.count > 0 && text > textBytes - pageText {
                    // Past the page's text: this record starts the next page.
                    hasMore = true
                    return
                }
                pageText += text
            }
            records.appendRecord(row, from: sortColumns, ownToOnes: reads.ownToOnes, blobColumns: reads.blobColumns, clonedFrom: reads.clonedFromColumn)
            if records.count == pageSize || !textColumns.isEmpty {
                // The page's last record so far: where the next page starts, if there is one.
                lastPosition = FetchRequest.Position(values: keys.indices.map { Self.positionValue(row, $0, keys[$0].kind) })
            }
        }
        try addRelated(reads, to: &records)
        try readBinaryValues(in: &records, inlineBytes: inlineBinaryBytes)
        return RecordPage(records: records, lastPosition: hasMore ? lastPosition : nil, hasMore: hasMore)
    }

    /// The sort keys of `request` with `_id` last: the columns a page query selects first.
    func pageKeys(_ request: FetchRequest) throws -> [FetchKeyColumn] {
        let entity = entity(request.entity)
        return try request.sort.map { try keyColumn(entity, $0.key) } + [FetchKeyColumn(name: "_id", sql: quoted("_id"), kind: .id)]
    }

    /// Runs the page query of `request` and hands each row to `body`: its sort columns (`keys`),
    /// then with `withRecords` the record's columns (`SQLRecordColumns`). Throws
    /// `StoreError.notFound` for an `after` that names a missing record under an order other than
    /// `_id`. No row when a filter's value is one nothing stored can equal.
    func forEachPageRow(
        _ request: FetchRequest, keys: [FetchKeyColumn], limit: Int?, withRecords: Bool, _ body: (Connection.Row) throws -> Void
    ) throws {
        let entity = entity(request.entity)
        guard var values = try filterValues(request, entity: entity, capacity: request.predicates.count + keys.count + 1) else { return }
        let cursor = try pageCursor(request, entity: entity, keys: keys)
        for (index, value) in (cursor ?? []).enumerated() where value != .null {
            values.append(try Self.cursorValue(value, column: keys[index], entity: entity.name))
        }
        if let limit { values.append(Connection.value(.integer(Int64(limit)))) }
        let shape = FetchPageShape(
            entity: entity.name,
            predicates: request.predicates.map { .init(property: $0.property, isNull: $0.value.isNull) },
            sort: request.sort, cursorNulls: cursor?.map { $0 == .null }, limited: limit != nil, withRecords: withRecords)
        try forEachPageRow(shape: shape, sql: { try pageSQL(shape, entity, keys: keys) }, values: values, body)
    }

    /// The position a page starts after: the request's own, or the sort-key values of the object
    /// `after` names; nil for the first page.
    private func pageCursor(_ request: FetchRequest, entity: EntityDescription, keys: [FetchKeyColumn]) throws -> [FetchRequest.Position.Value]? {
        if let position = request.position {
            precondition(position.values.count == keys.count, "a position of \(position.values.count) values for \(keys.count) sort keys")
            return position.values
        }
        guard let after = request.after else { return nil }
        // Ordered by `_id` alone, the `_id` is the whole position: no row needed.
        if keys.count == 1 { return [.integer(after)] }
        let select =
            "SELECT " + keys.map(\.sql).joined(separator: ", ") + " FROM \(quoted(entity.name)) WHERE \"_id\" = \(Dialect.parameter(1))"
        var cursor: [FetchRequest.Position.Value]?
        try connection.forEachRow(select, arguments: [.integer(after)]) { row in
            cursor = keys.indices.map { Self.positionValue(row, $0, keys[$0].kind) }
        }
        guard let cursor else { throw StoreError.notFound(entity: entity.name, id: after) }
        return cursor
    }

    /// The SQL text of a page query's shape. Parameters: the non-NULL filters' values, then the
    /// cursor's non-NULL values in sort-key order (each named wherever the condition needs it),
    /// then the limit.
    private func pageSQL(_ shape: FetchPageShape, _ entity: EntityDescription, keys: [FetchKeyColumn]) throws -> String {
        var parameter = 0
        var conditions = try filterConditions(shape.predicates, entity, parameter: &parameter)
        if let cursorNulls = shape.cursorNulls {
            var places: [String] = []
            for isNull in cursorNulls {
                if isNull {
                    places.append("NULL")
                } else {
                    parameter += 1
                    places.append(Dialect.parameter(parameter))
                }
            }
            // Keyset pagination: rows strictly after the cursor's place in the order, so no row is
            // skipped or repeated when rows change between pages. Nested, `after(k) OR (equal(k)
            // AND (…))`, so the condition grows linearly with the keys, not with their square.
            var condition = ""
            for index in keys.indices.reversed() {
                let column = keys[index].sql
                let ascending = index < shape.sort.count ? shape.sort[index].ascending : true
                let after =
                    switch (ascending, cursorNulls[index]) {
                    case (true, true): "\(column) IS NOT NULL"
                    case (true, false): "\(column) > \(places[index])"
                    case (false, true): "1 = 0"
                    case (false, false): "(\(column) < \(places[index]) OR \(column) IS NULL)"
                    }
                condition =
                    condition.isEmpty
                    ? "(\(after))" : "(\(after) OR (\(Dialect.isNotDistinct(column, places[index])) AND \(condition)))"
            }
            conditions.append(condition)
        }
        var sql = "SELECT " + keys.map(\.sql).joined(separator: ", ")
        if shape.withRecords { sql += ", " + recordReads(entity.name).columns }
        sql += " FROM \(quoted(entity.name))"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        let order = keys.indices.map { index in
            let column = keys[index].sql
            let ascending = index < shape.sort.count ? shape.sort[index].ascending : true
            return ascending ? Dialect.ascendingNullsFirst(column) : Dialect.descendingNullsLast(column)
        }
        sql += " ORDER BY " + order.joined(separator: ", ")
        if shape.limited { sql += " LIMIT \(Dialect.parameter(parameter + 1))" }
        return sql
    }

    /// The bound values of `request`'s filters other than NULL, in their order, in an array
    /// reserving `capacity`; nil when one of them is a value nothing stored can equal (no row matches).
    func filterValues(_ request: FetchRequest, entity: EntityDescription, capacity: Int = 0) throws -> [Connection.Value]? {
        var values: [Connection.Value] = []
        values.reserveCapacity(max(capacity, request.predicates.count))
        for predicate in request.predicates where !predicate.value.isNull {
            _ = try keyColumn(entity, predicate.property)
            guard let value = try Self.filterValue(predicate.value.blobKeyed, entity: entity.name, attribute: predicate.property) else { return nil }
            values.append(value)
        }
        return values
    }

    /// The conditions of filters of these shapes, their parameters numbered after `parameter`
    /// (moved past the last): `IS NULL`, or equality with the next parameter.
    func filterConditions(_ predicates: [FetchPageShape.Predicate], _ entity: EntityDescription, parameter: inout Int) throws -> [String] {
        var conditions: [String] = []
        for predicate in predicates {
            let column = try keyColumn(entity, predicate.property).sql
            if predicate.isNull {
                conditions.append("\(column) IS NULL")
            } else {
                parameter += 1
                conditions.append("\(column) = \(Dialect.parameter(parameter))")
            }
        }
        return conditions
    }

    /// The column `property` filters or sorts on: `_id`, `_version`, an attribute, or a to-one
    /// reference stored on the row — or, for a to-one declared into an inheritance hierarchy, its
    /// parts' columns together: at most one is set (the hierarchy has one `_id` space), so their
    /// COALESCE is the field's `_id`, compared and ordered as any reference (and, as an attribute
    /// without an index, by a sort rather than an index).
    func keyColumn(_ entity: EntityDescription, _ property: String) throws -> FetchKeyColumn {
        if property == "_id" || property == "_version" { return FetchKeyColumn(name: property, sql: quoted(property), kind: .id) }
        if let attribute = entity.attribute(named: property) {
            return FetchKeyColumn(name: property, sql: quoted(property), kind: .attribute(attribute.type))
        }
        // A part's own name too: the service filters on the part that holds an `_id`.
        if let relationship = entity.relationship(named: property), case .foreignKeyOnSource(let column) = schema.storage(of: relationship) {
            return FetchKeyColumn(name: column, sql: quoted(column), kind: .id)
        }
        let parts = entity.relationshipParts(ofField: property)
        let columns = parts.compactMap { part -> String? in
            guard !part.isToMany, case .foreignKeyOnSource(let column) = schema.storage(of: part) else { return nil }
            return quoted(column)
        }
        if !parts.isEmpty && columns.count == parts.count {
            return FetchKeyColumn(name: property, sql: "COALESCE(\(columns.joined(separator: ", ")))", kind: .id)
        }
        if !parts.isEmpty { throw StoreError.invalidValue(entity: entity.name, property: property, reason: "only to-one relationships can filter or sort") }
        if entity.relationship(named: property) != nil {
            throw StoreError.invalidValue(
                entity: entity.name, property: property, reason: "only attributes and to-one relationships stored on this entity can filter or sort")
        }
        throw StoreError.unknownProperty(entity: entity.name, property: property)
    }
}
