import ClonerModel

/// What a relationship into an inheritance hierarchy needs of the store beyond ordinary edges
/// (docs/architecture.md#relationships-into-a-hierarchy): which concrete entity holds an `_id`.
extension SQLStoreContext {
    /// One statement over the entities' tables, the id list bound once.
    func concreteEntities(ofIDs ids: [Int64], among entities: [String]) throws -> [Int64: String] {
        guard !ids.isEmpty, !entities.isEmpty else { return [:] }
        let parts = entities.enumerated().map { index, entity in
            "SELECT \"_id\", CAST(\(index) AS \(Dialect.integerType)) FROM \(quoted(entity)) WHERE \"_id\" \(Dialect.among(1))"
        }
        var found: [Int64: String] = [:]
        try connection.forEachRow(parts.joined(separator: " UNION ALL "), arguments: [.ids(ids)]) { row in
            found[row.int64(0)] = entities[Int(row.int64(1))]
        }
        return found
    }
}
