import ClonerModel
import Foundation

extension PostgreSQLStoreContext {
    /// A column a list may filter or sort on, with the type its values have.
    struct KeyColumn {
        enum Kind {
            case id
            case attribute(AttributeType)
        }
        let name: String
        let kind: Kind
    }

    /// The objects matching a request, in its order, with their positions: one query.
    ///
    /// Positions carry the values in the SQLite store's storage classes (integers for integers,
    /// booleans, dates in milliseconds and references; text for strings, JSON and lower-case
    /// UUIDs; doubles; blobs), so a list cursor means the same on both backends. NULLs sort first
    /// ascending and last descending, as SQLite sorts them, and strings sort by bytes (`COLLATE
    /// "C"`), as SQLite's BINARY collation does.
    func fetchPositions(_ request: FetchRequest) throws -> [(id: Int64, position: FetchRequest.Position)] {
        let entity = entity(request.entity)
        var conditions: [String] = []
        var values: [PostgreSQLValue] = []
        func parameter(_ value: PostgreSQLValue) -> String {
            values.append(value)
            return "$\(values.count)"
        }
        for predicate in request.predicates {
            let column = try keyColumn(entity, predicate.property)
            if predicate.value.isNull {
                conditions.append("\(quoted(column.name)) IS NULL")
            } else {
                if case .string(let text) = predicate.value, text.utf8.contains(0) { return [] }  // nothing stored can equal it
                if case .json(let text) = predicate.value, text.utf8.contains(0) { return [] }
                let value = try PostgreSQLStoreContext.parameter(predicate.value.blobKeyed, entity: entity.name, attribute: predicate.property)
                conditions.append("\(quoted(column.name)) = \(parameter(value))")
            }
        }
        var sort = try request.sort.map { (column: try keyColumn(entity, $0.key), ascending: $0.ascending) }
        sort.append((column: KeyColumn(name: "_id", kind: .id), ascending: true))

        var cursor: [PostgreSQLValue]?
        if let position = request.position {
            precondition(position.values.count == sort.count, "a position of \(position.values.count) values for \(sort.count) sort keys")
            cursor = try zip(sort, position.values).map { try cursorParameter($1, column: $0.column, entity: entity.name) }
        } else if let after = request.after {
            if sort.count == 1 {
                cursor = [.int8(after)]
            } else {
                let select = "SELECT " + sort.map { quoted($0.column.name) }.joined(separator: ", ") + " FROM \(quoted(entity.name)) WHERE \"_id\" = $1"
                let result = try run(select, [.int8(after)])
                guard result.rowCount > 0 else { throw StoreError.notFound(entity: entity.name, id: after) }
                let row = result[0]
                cursor = sort.indices.map { row.value($0) }
            }
        }
        if let cursor {
            // Nested, `after(k) OR (equal(k) AND (…))`, so the condition and its parameters grow
            // linearly with the keys (one parameter per cursor value), not with their square.
            var condition = ""
            for index in sort.indices.reversed() {
                let column = quoted(sort[index].column.name)
                let value = cursor[index]
                let placeholder = value.isNull ? "NULL" : parameter(value)
                let after =
                    switch (sort[index].ascending, value.isNull) {
                    case (true, true): "\(column) IS NOT NULL"
                    case (true, false): "\(column) > \(placeholder)"
                    case (false, true): "false"
                    case (false, false): "(\(column) < \(placeholder) OR \(column) IS NULL)"
                    }
                condition =
                    condition.isEmpty
                    ? "(\(after))" : "(\(after) OR (\(column) IS NOT DISTINCT FROM \(placeholder) AND \(condition)))"
            }
            conditions.append(condition)
        }

        var sql = "SELECT " + sort.map { quoted($0.column.name) }.joined(separator: ", ") + " FROM \(quoted(entity.name))"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " ORDER BY " + sort.map { quoted($0.column.name) + ($0.ascending ? " ASC NULLS FIRST" : " DESC NULLS LAST") }.joined(separator: ", ")
        if let limit = request.limit { sql += " LIMIT \(parameter(.int8(Int64(limit))))" }

        let result = try run(sql, values)
        var rows: [(id: Int64, position: FetchRequest.Position)] = []
        rows.reserveCapacity(result.rowCount)
        let last = sort.count - 1
        result.forEachRow { row in
            let position = FetchRequest.Position(values: sort.indices.map { positionValue(row, $0, sort[$0].column.kind) })
            rows.append((id: row.int64(last), position: position))
        }
        return rows
    }

    private func keyColumn(_ entity: EntityDescription, _ property: String) throws -> KeyColumn {
        if property == "_id" || property == "_version" { return KeyColumn(name: property, kind: .id) }
        if let attribute = entity.attribute(named: property) { return KeyColumn(name: property, kind: .attribute(attribute.type)) }
        if let relationship = entity.relationship(named: property), case .foreignKeyOnSource(let column) = schema.storage(of: relationship) {
            return KeyColumn(name: column, kind: .id)
        }
        if entity.relationship(named: property) != nil {
            throw StoreError.invalidValue(
                entity: entity.name, property: property, reason: "only attributes and to-one relationships stored on this entity can filter or sort")
        }
        throw StoreError.unknownProperty(entity: entity.name, property: property)
    }

    /// A sort-key value as a position carries it (the SQLite store's storage classes).
    private func positionValue(_ row: PostgreSQLRow, _ column: Int, _ kind: KeyColumn.Kind) -> FetchRequest.Position.Value {
        if row.isNull(column) { return .null }
        switch kind {
        case .id: return .integer(row.int64(column))
        case .attribute(let type):
            switch type {
            case .integer: return .integer(row.int64(column))
            case .boolean: return .integer(row.bool(column) ? 1 : 0)
            case .date: return .integer(row.timestampMilliseconds(column))
            case .double: return .double(row.double(column))
            case .string, .json: return .text(row.string(column))
            case .uuid: return .text(row.uuid(column).uuidString.lowercased())
            case .binary: return .blob(row.data(column))
            }
        }
    }

    /// A position's value as a parameter of the sort column's type. A cursor is the client's to
    /// send back, so a value of the wrong kind is a bad request naming the key, not a crash.
    private func cursorParameter(_ value: FetchRequest.Position.Value, column: KeyColumn, entity: String) throws -> PostgreSQLValue {
        func refuse() -> StoreError {
            StoreError.invalidValue(entity: entity, property: column.name, reason: "the cursor's value does not fit this sort key")
        }
        switch (column.kind, value) {
        case (_, .null): return .null
        case (.id, .integer(let v)): return .int8(v)
        case (.attribute(.integer), .integer(let v)): return .int8(v)
        case (.attribute(.boolean), .integer(let v)): return .bool(v != 0)
        case (.attribute(.date), .integer(let v)):
            guard PostgreSQLStoreContext.timestampRange.contains(v) else { throw refuse() }
            return .timestamptz(millisecondsSince1970: v)
        case (.attribute(.double), .double(let v)): return .float8(v)
        case (.attribute(.double), .integer(let v)): return .float8(Double(v))
        case (.attribute(.string), .text(let v)), (.attribute(.json), .text(let v)):
            guard !v.utf8.contains(0) else { throw refuse() }
            return .text(v)
        case (.attribute(.uuid), .text(let v)):
            guard let uuid = UUID(uuidString: v) else { throw refuse() }
            return .uuid(uuid)
        case (.attribute(.binary), .blob(let v)): return .bytea(v)
        default: throw refuse()
        }
    }

    /// Destination `_id`s of one relationship for many sources at once, in order when ordered
    /// (a NULL position first, as SQLite sorts it), else by `_id`: one query.
    func destinationIDs(of relationship: RelationshipDescription, for sources: [Int64]) throws -> [Int64: [Int64]] {
        guard !sources.isEmpty else { return [:] }
        let join = schema.join(for: relationship)
        let source = quoted(join.sourceColumn)
        let destination = quoted(join.destinationColumn)
        var order = [source]
        if let position = join.positionColumn { order.append("\(quoted(position)) ASC NULLS FIRST") }
        order.append(destination)
        let sql =
            "SELECT \(source), \(destination) FROM \(quoted(join.table)) WHERE \(source) = ANY($1) AND \(destination) IS NOT NULL ORDER BY \(order.joined(separator: ", "))"
        var result: [Int64: [Int64]] = [:]
        try run(sql, [PostgreSQLStoreContext.idArray(sources)]).forEachRow { row in
            result[row.int64(0), default: []].append(row.int64(1))
        }
        return result
    }
}
