import ClonerModel

extension SQLiteGraphCopySQL {
    /// One way of the walk (`walkPaths`) as one INSERT into the walk table: the objects reached
    /// from the rows of way `parent` by the way's edge. Each way's rows are the walk table's
    /// `seq` range it appended, so a way reads its parent's rows by that range (`:f<n>`, `:t<n>`
    /// bound to way n's first row less one and its last row).
    struct WalkWay {
        let sql: String
        /// The way whose rows this one goes on from.
        let parent: Int
        /// Ways whose rows, at the parent's entity, this one does not go on from.
        let covering: [Int]
        /// Edges from the root: 1 for a way that leaves the root.
        let depth: Int
        /// The edge's relationship index, the rows' `via`.
        let via: Int
    }

    /// The walk as one INSERT per way down the model, where the model allows it (`walkPaths`):
    /// for the 10,000-item note, ways took its walk from 61 to 21 ms (docs/benchmarks.md). A level
    /// of the breadth-first walk tries every edge of the model for every object of the level,
    /// looks up each arrival's earlier arrivals and sorts the level; a way joins one edge's rows,
    /// in no order.
    ///
    /// No sort is needed: the map takes an object's parent from its first row (`min(seq)`), and
    /// the ways come in breadth-first order, each holding an object at most once (every edge of
    /// a way has a to-one inverse). A way goes on by an edge only from objects that no earlier
    /// way at the same entity left by the same edge (`GraphWalkPath.covering`), which finds what
    /// the level walk finds, whose arrivals take an edge once per object. Rule 8 is in the ways:
    /// every copy walks the same graph, so a relationship a copy sets is walked from no root.
    func walkWaySteps() -> [WalkWay]? {
        guard let paths = walkPaths(skipsFromRoot: { setsAtRoot($0.source, $0.name) }) else { return nil }
        let walk = SQLiteGraphCopySQL.walkTable
        return paths.indices.dropFirst().map { index in
            let path = paths[index]
            guard let edge = path.edge, let parent = path.parent else { preconditionFailure("way \(index) without an edge") }
            let join = edge.join
            let covering = GraphWalkPath.covering(index, in: paths)
            let parentTag = paths[parent].entityTag
            var conditions = ["w.seq > :f\(parent)", "w.seq <= :t\(parent)", join.nonNullCondition(alias: "t")]
            conditions += covering.map { way in
                "NOT EXISTS (SELECT 1 FROM \(walk) e WHERE e.ent = \(parentTag) AND e.id = w.id AND e.seq > :f\(way) AND e.seq <= :t\(way))"
            }
            // The parent's rows by their numbers (`NOT INDEXED`), each edge row by the index of
            // its source column (the `_id` for a reference stored on the parent's own row).
            let sql = """
                INSERT INTO \(walk) (ent, id, via, pent, pid) \
                SELECT \(path.entityTag), t.\(quoted(join.destinationColumn)), \(edge.via), \(parentTag), w.id \
                FROM \(walk) w NOT INDEXED JOIN \(quoted(join.table)) t ON t.\(quoted(join.sourceColumn)) = w.id \
                WHERE \(conditions.joined(separator: " AND "))
                """
            return WalkWay(sql: sql, parent: parent, covering: covering, depth: path.depth, via: edge.via)
        }
    }
}
