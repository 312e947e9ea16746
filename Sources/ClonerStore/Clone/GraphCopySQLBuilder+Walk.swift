import ClonerModel

/// One kind of edge the walk may take: a followed relationship, seen as a join.
struct GraphWalkEdge {
    let relationship: RelationshipDescription
    let join: RelationshipJoin
    let sourceTag: Int
    let destinationTag: Int
    /// The relationship's index, which the walk's rows carry as `via`.
    let via: Int
}

extension GraphCopySQLBuilder {
    /// Every edge the walk may take, in model order (entity, then relationship): the order a level
    /// expands an object's relationships in.
    var walkEdges: [GraphWalkEdge] {
        model.entities.flatMap { entity in
            entity.relationships.filter(isFollowed).map { relationship in
                GraphWalkEdge(
                    relationship: relationship, join: schema.join(for: relationship), sourceTag: tag(entity.name),
                    destinationTag: tag(relationship.destination), via: relationshipIndex[relationship.qualifiedName]!)
            }
        }
    }

    /// When an arrival row `arrival` (`ent`, `id`, `via`, `pid`, and `cp` where copies walk
    /// apart) takes `edge` to the edge row `row`: rules 2 and 8 of docs/architecture.md#relationship-rules.
    func walkConditions(_ edge: GraphWalkEdge, arrival w: String, row t: String) -> [String] {
        let relationship = edge.relationship
        var conditions = ["\(w).ent = \(edge.sourceTag)", edge.join.nonNullCondition(alias: t)]
        if relationship.isSelfInverse {
            // Rule 2 for a relationship that is its own inverse (`Person.friends`): only the edge
            // back to the object of arrival is skipped, so the rest of its list is still walked.
            conditions.append("(\(w).via <> \(edge.via) OR \(t).\(quoted(edge.join.destinationColumn)) <> \(w).pid)")
        } else if let inverse = model.inverse(of: relationship), let inverseIndex = relationshipIndex[inverse.qualifiedName] {
            // Rule 2: not back through the exact edge of arrival.
            conditions.append("\(w).via <> \(inverseIndex)")
        }
        // Rule 8: a relationship the request excludes or sets on the root is not walked from the
        // root (objects reachable another way still are).
        if excludedAtRoot(relationship.source, relationship.name) {
            conditions.append("\(w).via <> -1")
        } else if let condition = walkSkipsFromRoot(relationship.source, relationship.name, arrival: w) {
            conditions.append(condition)
        }
        return conditions
    }

    /// The `via`s of arrivals at `entity` that leave nothing for a later arrival at the same
    /// object to take: relationships into it whose inverse the walk does not follow, so rule 2
    /// stopped no edge of it. (An arrival through a self-inverse relationship, or at the root,
    /// may have left an edge to a later one.)
    func completeArrivals(at entity: String) -> [Int] {
        walkEdges.filter { edge in
            guard edge.relationship.destination == entity, !edge.relationship.isSelfInverse else { return false }
            guard let inverse = model.inverse(of: edge.relationship) else { return true }
            return !isFollowed(inverse)
        }.map(\.via)
    }

    /// Counts the root's objects one edge away along `paths` (the root's `_id` parameter 1), up
    /// to `limit`: whether a walk is large enough to go by ways. Nil where no way leaves the root.
    func rootWaysProbe(_ paths: [GraphWalkPath], limit: Int) -> String? {
        let selects = paths.filter { $0.parent == 0 }.compactMap(\.edge).map { edge in
            "SELECT 1 FROM \(quoted(edge.join.table)) t WHERE t.\(quoted(edge.join.sourceColumn)) = \(Dialect.parameter(1)) "
                + "AND \(edge.join.nonNullCondition(alias: "t"))"
        }
        guard !selects.isEmpty else { return nil }
        return "SELECT count(*) FROM (\(selects.joined(separator: " UNION ALL ")) LIMIT \(limit)) n"
    }
}
