import ClonerModel

/// How many records a list's filters match, the same on every backend: one `COUNT(*)` over the
/// page query's filters (`SQLStoreContext+Pages`), without its cursor, order or limit.
extension SQLStoreContext {
    func countRecords(_ request: FetchRequest) throws -> Int64 {
        let entity = entity(request.entity)
        guard let values = try filterValues(request, entity: entity) else { return 0 }
        var parameter = 0
        let predicates = request.predicates.map { FetchPageShape.Predicate(property: $0.property, isNull: $0.value.isNull) }
        let conditions = try filterConditions(predicates, entity, parameter: &parameter)
        var sql = "SELECT COUNT(*) FROM \(quoted(entity.name))"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        var count: Int64 = 0
        try forEachRow(sql, values: values) { count = $0.int64(0) }
        return count
    }
}
