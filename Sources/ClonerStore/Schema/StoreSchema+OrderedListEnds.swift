import ClonerModel

extension StoreSchema {
    /// The last position of the ordered list an object joins through its to-one `relationship`
    /// (stored as its reference column `column` of `table`, with a position column `position`),
    /// for the owner `owner` (an SQL expression), -1 for an empty list: where an object that
    /// joins from its to-one side goes, at the end, as in Core Data.
    ///
    /// When the list is a part of an ordered to-many declared into an inheritance hierarchy
    /// (`Post.blog` joining `Blog.posts__Post`), the end is over every part's rows, so the object
    /// goes after the other concrete entities' objects too: the parts keep one order over the
    /// declared list (docs/architecture.md#relationships-into-a-hierarchy). Written once for every
    /// backend: a scalar subquery, one branch per part, each reading its owner's rows by the
    /// reference column's index.
    func orderedListEnd(joinedBy relationship: RelationshipDescription, table: String, column: String, position: String, owner: String)
        -> String
    {
        var lists = [(table: table, column: column, position: position)]
        if let inverse = model.inverse(of: relationship), inverse.isHierarchyPart, inverse.isOrdered,
            let owners = model.entity(named: inverse.source)
        {
            lists = owners.relationshipParts(ofField: inverse.fieldName).compactMap { part in
                guard case .foreignKeyOnDestination(let column, let position?) = storage(of: part) else { return nil }
                return (part.destination, column, position)
            }
        }
        let branches = lists.map { list in
            "SELECT e.\(quoted(list.position)) FROM \(quoted(list.table)) e WHERE e.\(quoted(list.column)) = \(owner) AND e.\(quoted(list.position)) IS NOT NULL"
        }
        guard branches.count > 1 else {
            return "coalesce((SELECT max(e.\(quoted(position))) FROM \(quoted(table)) e WHERE e.\(quoted(column)) = \(owner)), -1)"
        }
        return "coalesce((\(branches.joined(separator: " UNION ALL ")) ORDER BY 1 DESC LIMIT 1), -1)"
    }
}
