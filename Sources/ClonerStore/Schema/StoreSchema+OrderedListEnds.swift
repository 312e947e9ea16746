import ClonerModel

extension StoreSchema {
    /// The last position of the ordered list an object joins through its to-one `relationship`
    /// (stored as its reference column `column` of `table`, with a position column `position`),
    /// for the owner `owner` (an SQL expression), -1 for an empty list: where an object that
    /// joins from its to-one side goes, at the end, as in Core Data.
    ///
    /// When the list is a part of an ordered to-many declared into an inheritance hierarchy
    /// (`Post.blog` joining `Blog.posts__Post`), the end is over every part's rows
    /// (`hierarchyListEnd`), so the object goes after the other concrete entities' objects too.
    func orderedListEnd(joinedBy relationship: RelationshipDescription, table: String, column: String, position: String, owner: String)
        -> String
    {
        if let inverse = model.inverse(of: relationship), let end = hierarchyListEnd(of: inverse, owner: owner) { return end }
        return "coalesce((SELECT max(e.\(quoted(position))) FROM \(quoted(table)) e WHERE e.\(quoted(column)) = \(owner)), -1)"
    }

    /// The last position of the ordered to-many `list` of the owner `owner` (an SQL expression)
    /// over every part of the field it is a part of, -1 for an empty list, when `list` is a part
    /// of an ordered to-many declared into an inheritance hierarchy; nil for any other list, whose
    /// end its one table tells.
    ///
    /// The parts keep one order over the declared list (docs/architecture.md#relationships-into-a-hierarchy),
    /// so an object joining one part goes after every part's rows. Written once for every
    /// backend: a scalar subquery, one branch per part (its destination's reference column or its
    /// join table's owner column), each reading the owner's rows by that column's index.
    func hierarchyListEnd(of list: RelationshipDescription, owner: String) -> String? {
        guard list.isHierarchyPart, list.isToMany, list.isOrdered, let owners = model.entity(named: list.source) else { return nil }
        let branches = owners.relationshipParts(ofField: list.fieldName).compactMap { part -> String? in
            let table: String, column: String, position: String
            switch storage(of: part) {
            case .foreignKeyOnDestination(let reference, let place?): (table, column, position) = (part.destination, reference, place)
            case .joinTable(let joinTable, let source, _, let place?): (table, column, position) = (joinTable, source, place)
            default: return nil
            }
            return "SELECT e.\(quoted(position)) FROM \(quoted(table)) e WHERE e.\(quoted(column)) = \(owner) AND e.\(quoted(position)) IS NOT NULL"
        }
        guard !branches.isEmpty else { return nil }
        return "coalesce((\(branches.joined(separator: " UNION ALL ")) ORDER BY 1 DESC LIMIT 1), -1)"
    }
}
