import ClonerModel

extension SQLiteGraphCopySQL {
    /// A large walk by the model's ways (`walkPaths`), straight into the first-arrival table:
    /// one `INSERT OR IGNORE` per way, each object kept from the first way that reaches it.
    struct WalkWays {
        /// Counts the root's objects along the ways that leave it, up to
        /// `SQLiteGraphCopier.walkWaysFromObjects` (`?1` the root): whether the walk is large.
        let probe: String
        /// The root's row (`:rootTag`, `:root`).
        let start: String
        /// One statement per way after the root, in the ways' order.
        let steps: [String]
        /// The entity of each step's objects, so the objects are counted from the rows each step
        /// inserted rather than by reading the table again.
        let stepEntities: [Int]
    }

    /// The walk as one statement per way, where the model allows it; nil where the level walk
    /// must run. Each object is kept once, from the first way that reaches it, so no walk table of
    /// every arrival is written, grouped by object and deleted again.
    ///
    /// A level of the breadth-first walk tries every edge of the model for every object of the
    /// level, looks up each arrival's earlier arrivals and sorts the level, and its table keeps
    /// every arrival, which the map fill then groups by object. A way joins one edge's rows, in
    /// no order, and keeps an object only if no earlier way has it (`OR IGNORE` on the table's
    /// key): the ways come in breadth-first order, so that is the object's first arrival, and
    /// its parent, as the level walk's lowest `seq` gives it. Each object is then one row,
    /// already in id order for the map.
    ///
    /// A way goes on from the objects its parent way kept. An object the parent way met but an
    /// earlier way at the same entity kept is one that earlier way goes on from, by the same edge
    /// (`GraphWalkPath.covering`), reaching the same objects first; a model where that does not
    /// hold for every way is left to the levels. Rule 8 is in the ways: every copy walks the same
    /// graph, so a relationship a copy sets is walked from no root.
    func walkWaySteps() -> WalkWays? {
        guard let paths = walkPaths(skipsFromRoot: { setsAtRoot($0.source, $0.name) }), paths.count > 1 else { return nil }
        for (index, path) in paths.enumerated() {
            guard let parent = path.parent else { continue }
            let earlier = paths.indices.filter { $0 < parent && paths[$0].entityTag == paths[parent].entityTag }
            guard Set(earlier).isSubset(of: GraphWalkPath.covering(index, in: paths)) else { return nil }
        }
        let first = SQLiteGraphCopySQL.firstArrivalTable(of:)
        let steps = paths.indices.dropFirst().map { index in
            let path = paths[index]
            guard let edge = path.edge, let parent = path.parent else { preconditionFailure("way \(index) without an edge") }
            let join = edge.join
            let destination = "t.\(quoted(join.destinationColumn))"
            // Reading the table it writes, SQLite first buffers every row the SELECT gives. Where
            // an earlier way reaches the same entity, the objects it has already kept are left
            // out before that, not ignored after, so the buffer holds only objects still new (item
            // data reached again from their memos are already kept). A way first at its entity keeps nearly
            // every row, and the look-up would only add to it.
            let seen =
                paths[..<index].contains { $0.entityTag == path.entityTag }
                ? " AND NOT EXISTS (SELECT 1 FROM \(first(path.entityTag)) x WHERE x.id = \(destination))" : ""
            // The parent way's objects from its entity's table, each edge row by the index of its
            // source column (the `_id` for a reference on the parent's own row).
            return """
                INSERT OR IGNORE INTO \(first(path.entityTag)) (id, way, pent, pid) \
                SELECT \(destination), \(index), \(paths[parent].entityTag), p.id \
                FROM \(first(paths[parent].entityTag)) p JOIN \(quoted(join.table)) t ON t.\(quoted(join.sourceColumn)) = p.id \
                WHERE p.way = \(parent) AND \(join.nonNullCondition(alias: "t"))\(seen)
                """
        }
        guard let probe = rootWaysProbe(paths, limit: SQLiteGraphCopier.walkWaysFromObjects) else { return nil }
        return WalkWays(
            probe: probe,
            start: "INSERT INTO \(first(rootTag)) (id, way, pent, pid) VALUES (:root, 0, NULL, NULL)",
            steps: steps, stepEntities: paths.dropFirst().map(\.entityTag))
    }
}
