import ClonerModel

/// One way down the model from the root: the edges a walk takes, entity to entity, to reach some
/// objects. Where the model's walk has finitely many such ways, and each reaches every object at
/// most once, the walk can be written as one join per way (`GraphCopySQLBuilder.walkPaths`)
/// rather than as a recursion that tries every edge for every object it meets.
struct GraphWalkPath {
    /// The edge from the parent way's objects; nil for the root.
    let edge: GraphWalkEdge?
    /// Index of the way this one continues, in the list `walkPaths` answers; nil for the root.
    let parent: Int?
    let entityTag: Int
    /// Edges from the root: the breadth-first level at which this way reaches its objects (an
    /// object another way reached at a shallower level was met there first).
    let depth: Int
    /// The position, among the walk's edges, of the root's edge this way starts with: between
    /// two ways at one depth, breadth first meets the one that starts with the earlier edge first.
    let firstEdge: Int

    /// The ways whose objects way `index` of `paths` need not go on from: earlier ways at its
    /// parent's entity that go on by the same edge, and so give the same rows first (for the
    /// note, the memos reached again through their item data, whose attachments are found once).
    static func covering(_ index: Int, in paths: [GraphWalkPath]) -> [Int] {
        guard let parent = paths[index].parent, let via = paths[index].edge?.via else { return [] }
        return paths.indices.filter { way in
            way < parent && paths[way].entityTag == paths[parent].entityTag
                && paths.contains { $0.parent == way && $0.edge?.via == via }
        }
    }
}

extension GraphCopySQLBuilder {
    /// A model with more ways down it than this is left to the recursive walk: the statement of
    /// one join per way would grow past what it saves.
    static var walkPathLimit: Int { 48 }

    /// Every way down the model from the root, in the order a breadth-first walk meets them —
    /// by depth, then by the root's edge they start with — or nil when a walk cannot be written
    /// as one join per way and still find what the recursive walk finds, in its order:
    ///
    /// - a way that comes back to an (entity, arrival edge) it passed, which a recursion ends
    ///   only by the objects it has seen (a tree of folders), or too many ways;
    /// - an edge whose inverse is missing or to-many, or a relationship that is its own
    ///   inverse: objects could then be reached twice along one way, from parents the walk meets
    ///   in an order only the rows tell;
    /// - two ways that reach one entity at one depth from the same edge of the root, whose
    ///   order again is the rows'.
    ///
    /// `skipsFromRoot` answers whether rule 8 keeps an edge from being taken from the root in
    /// every copy (copies that walk apart are the caller's to exclude).
    func walkPaths(skipsFromRoot: (RelationshipDescription) -> Bool) -> [GraphWalkPath]? {
        let edges = walkEdges
        var paths = [GraphWalkPath(edge: nil, parent: nil, entityTag: rootTag, depth: 0, firstEdge: -1)]
        var next = 0
        while next < paths.count {
            let path = paths[next]
            let arrival = path.edge?.via ?? -1
            for (position, edge) in edges.enumerated() where edge.sourceTag == path.entityTag {
                let relationship = edge.relationship
                // A relationship that is its own inverse skips only the edge back to the object
                // of arrival (rule 2), which the ways cannot tell.
                guard !relationship.isSelfInverse else { return nil }
                let inverse = model.inverse(of: relationship)
                // Rule 2: not back through the edge of arrival; rule 8: not from the root.
                if let inverse, relationshipIndex[inverse.qualifiedName] == arrival { continue }
                if path.parent == nil && (excludedAtRoot(relationship.source, relationship.name) || skipsFromRoot(relationship)) {
                    continue
                }
                guard let inverse, !inverse.isToMany else { return nil }
                // The same arrival at the same entity already on this way: a cycle.
                var ancestor: Int? = next
                while let index = ancestor {
                    if paths[index].edge?.via == edge.via { return nil }
                    ancestor = paths[index].parent
                }
                guard paths.count < Self.walkPathLimit else { return nil }
                paths.append(
                    GraphWalkPath(
                        edge: edge, parent: next, entityTag: edge.destinationTag, depth: path.depth + 1,
                        firstEdge: path.parent == nil ? position : path.firstEdge))
            }
            next += 1
        }
        // Breadth first meets ways level by level, and within one in the order of the root's edge
        // they start with; the enumeration above already is in that order.
        for (index, path) in paths.enumerated() where index > 0 {
            let rival = paths[..<index].contains { $0.entityTag == path.entityTag && $0.depth == path.depth && $0.firstEdge == path.firstEdge }
            if rival { return nil }
        }
        return paths
    }
}
