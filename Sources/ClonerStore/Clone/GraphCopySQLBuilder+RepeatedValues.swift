import ClonerModel

/// A dry run's look at what the copy's inserts would break: per unique attribute and per
/// `uniqueTogether` group of an entity with objects, the copied rows whose value (or combination)
/// another row already holds or another copied row would hold too. The rows are the very
/// SELECTs the inserts would run (`rowSelects`), so set, exclusions and every rule count as they
/// would; the existing rows are read through the constraint's own index.
extension GraphCopySQLBuilder {
    /// Whether an entity the copy may write has a unique attribute or a `uniqueTogether` group.
    var hasUniqueConstraints: Bool {
        scope.entities.contains { entity in !entity.uniqueTogether.isEmpty || entity.attributes.contains(where: \.isUnique) }
    }

    /// One query per constraint of the entities with objects (`counts`), each answering one row:
    /// how many copied rows would repeat a value.
    func repeatedValueQueries(counts: [Int: Int]) -> [(clash: GraphCopyClash, query: String)] {
        scope.entities.filter { (counts[tag($0.name)] ?? 0) > 0 }.flatMap { entity -> [(clash: GraphCopyClash, query: String)] in
            let groups = entity.attributes.filter(\.isUnique).map { [$0.name] } + entity.uniqueTogether
            guard !groups.isEmpty else { return [] }
            let (columns, selects) = rowSelects(entity)
            let names = columns.indices.map { "c\($0)" }.joined(separator: ", ")
            // Each SELECT as a subquery of its own: one may carry its own WITH and ORDER BY.
            let united = selects.enumerated().map { "SELECT * FROM (\($0.element)) AS s\($0.offset)" }.joined(separator: " UNION ALL ")
            let rows = "v(\(names)) AS (\(united))"
            return groups.map { group in
                let positions = group.map { name in "c\(entity.attributes.firstIndex { $0.name == name }! + 2)" }
                let present = allOf(positions.map { "v.\($0) IS NOT NULL" })
                let held = allOf(zip(group, positions).map { "t.\(quoted($0)) = v.\($1)" })
                let twice = allOf(positions.map { "d.\($0) = v.\($0)" })
                let query = """
                    WITH \(rows), d AS (SELECT \(positions.joined(separator: ", ")) FROM v WHERE \(present.replacingOccurrences(of: "v.", with: "")) \
                    GROUP BY \(positions.joined(separator: ", ")) HAVING count(*) > 1)
                    SELECT count(*) FROM v WHERE \(present) AND (EXISTS (SELECT 1 FROM \(quoted(entity.name)) t WHERE \(held)) \
                    OR EXISTS (SELECT 1 FROM d WHERE \(twice)))
                    """
                return (GraphCopyClash(entity: entity.name, attributes: group, objects: 0), query)
            }
        }
    }
}
