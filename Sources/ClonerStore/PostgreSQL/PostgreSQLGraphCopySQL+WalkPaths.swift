import ClonerModel

extension PostgreSQLGraphCopySQL {
    /// What `walkIntoMap` reads of a walk, by ways or by the recursion: its CTEs; the first
    /// arrival at each object (`cp, ent, id, pent, pid, ver`); the number of rows; and the walk's
    /// answer (`walkAnswers`).
    typealias WalkParts = (ctes: String, firstArrivals: String, rowCount: String, answers: String)

    /// A large clone's walk as one join per way down the model (`walkPaths`), each way a CTE
    /// `p<n>` (`id, ver, pid`) read by the ways that continue it, where the recursion meets every
    /// object with every edge of the model and hashes each row it makes. Nil where the recursion must
    /// walk (`walkPaths`, or copies that walk apart).
    ///
    /// An object is on a way at most once — every edge of a way has a to-one inverse, stored in
    /// one column or under a unique index — and the ways come in breadth-first order, so an
    /// object's first arrival is its row on the first way that has it: a way's rows less those of
    /// the ways before it at the same entity, with no sort of all rows by object. A way goes on by an edge only from objects that no earlier way
    /// left by the same edge, so no two ways hold one arrival (object, edge, parent), and the
    /// rows are the recursion's, whose `UNION` made one row of such arrivals. `limit` stops every
    /// way there: a walk past the object limit reads at most that many rows of each.
    func walkByPaths(limit: Int?) -> WalkParts? {
        guard let paths = walkPathList else { return nil }
        let stop = limit.map { " LIMIT \($0)" } ?? ""
        var ctes: [String] = []
        var arrivals: [String] = []
        // A way's objects carry the references their next ways leave by (a to-one stored on
        // the object, `c<way>`), so those ways look up only the destination, not the object again.
        func carried(_ index: Int, from row: String) -> String {
            paths.indices.filter { paths[$0].parent == index }.compactMap { next in
                guard let join = paths[next].edge?.join, isStoredOnSource(join, of: paths[index]) else { return nil }
                return ", \(row).\(quoted(join.destinationColumn)) AS c\(next)"
            }.joined()
        }
        for (index, path) in paths.enumerated() {
            let name = "p\(index)"
            if let edge = path.edge, let parent = path.parent {
                let join = edge.join
                let destinationTable = quoted(edge.relationship.destination)
                // An object an earlier way at the same entity also reached, and left by the same
                // edge, gives the same rows there first: only the others go on.
                let covering = GraphWalkPath.covering(index, in: paths)
                let parents =
                    covering.isEmpty
                    ? "p\(parent)"
                    : "(SELECT * FROM p\(parent) x WHERE " + covering.map(Self.notOnWay).joined(separator: " AND ") + ")"
                // Each parent's objects by index, a lateral subquery PostgreSQL may not merge
                // into a join (`OFFSET 0`): a hash join, which it prefers, reads the whole table
                // to find the clone's rows, so the walk would cost more as the store grows. The
                // destination's own row carries its version.
                let lookup: String
                if isStoredOnSource(join, of: paths[parent]) {
                    lookup =
                        "SELECT d.\"_id\" AS id, d.\"_version\" AS ver\(carried(index, from: "d")) FROM \(destinationTable) d "
                        + "WHERE d.\"_id\" = p.c\(index)"
                } else {
                    // Stored on the destination: `walkPaths` takes no edge kept in a join table
                    // (its inverse is to-many or missing).
                    precondition(join.table == edge.relationship.destination, "a way's edge in the join table \(join.table)")
                    lookup =
                        "SELECT t.\"_id\" AS id, t.\"_version\" AS ver\(carried(index, from: "t")) FROM \(destinationTable) t "
                        + "WHERE t.\(quoted(join.sourceColumn)) = p.id"
                }
                ctes.append("\(name) AS (SELECT t.*, p.id AS pid FROM \(parents) p CROSS JOIN LATERAL (\(lookup) OFFSET 0) t\(stop))")
            } else {
                ctes.append(
                    "\(name) AS (SELECT r.\"_id\" AS id, r.\"_version\" AS ver, NULL::int8 AS pid\(carried(index, from: "r")) "
                        + "FROM \(quoted(plan.rootEntity)) r WHERE r.\"_id\" = $1)")
            }
            let parentTag = path.parent.map { "\(paths[$0].entityTag)::int4" } ?? "NULL::int4"
            let earlier = paths[..<index].indices.filter { paths[$0].entityTag == path.entityTag }
            arrivals.append(
                "SELECT 0::int4 AS cp, \(path.entityTag)::int4 AS ent, id, \(parentTag) AS pent, pid, ver FROM \(name) x"
                    + (earlier.isEmpty ? "" : " WHERE " + earlier.map { Self.notOnWay($0) }.joined(separator: " AND ")))
        }
        let rowCount = "(" + paths.indices.map { "(SELECT count(*) FROM p\($0))" }.joined(separator: " + ") + ")"
        return (
            ctes: "WITH " + ctes.joined(separator: ", "), firstArrivals: arrivals.joined(separator: " UNION ALL "), rowCount: rowCount,
            answers: "SELECT ent, count(*) FROM f GROUP BY ent UNION ALL SELECT -1, \(rowCount)" + mayAppendCounts(paths)
        )
    }

    /// A reference kept in a column of the rows of `way`'s entity: a to-one stored on its source.
    private func isStoredOnSource(_ join: RelationshipJoin, of way: GraphWalkPath) -> Bool {
        join.sourceColumn == "_id" && join.table == model.entities[way.entityTag].name
    }

    /// The objects of `f` row `x` not on way `index`.
    private static func notOnWay(_ index: Int) -> String {
        "NOT EXISTS (SELECT 1 FROM p\(index) e WHERE e.id = x.id)"
    }

    /// `walkAnswers`' counts under `-2 - entity` from the ways: the objects of a two-insert step
    /// that are not, for each arrival keeping them in place, on a way of that arrival. Left out
    /// where every way at the entity is the one such arrival (a note's items, all through its
    /// list), and sent only when not zero, as the recursion's `HAVING` does.
    private func mayAppendCounts(_ paths: [GraphWalkPath]) -> String {
        entitySteps.compactMap { step -> String? in
            guard let keeps = step.keepsPlaceArrivals, !keeps.isEmpty else { return nil }
            let ways = paths.indices.filter { paths[$0].entityTag == step.tag }
            guard !ways.isEmpty, !(keeps.count == 1 && ways.allSatisfy({ paths[$0].edge?.via == keeps[0] })) else { return nil }
            // An object moves when some arrival that would keep it in place did not reach it.
            let moved = keeps.map { via in
                let keeping = ways.filter { paths[$0].edge?.via == via }
                return keeping.isEmpty ? "true" : "(" + keeping.map(Self.notOnWay).joined(separator: " AND ") + ")"
            }
            return " UNION ALL SELECT \(-2 - step.tag), count(*) FROM f x WHERE x.ent = \(step.tag) AND ("
                + moved.joined(separator: " OR ") + ") HAVING count(*) > 0"
        }.joined()
    }
}
