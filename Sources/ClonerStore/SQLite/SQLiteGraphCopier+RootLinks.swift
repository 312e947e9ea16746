import ClonerModel

extension SQLiteGraphCopier {
    /// The to-many links a `set` gives the root (DESIGN.md §3 rule 8), for every copy at once
    /// (`SQLiteGraphCopySQL+RootLinks`): statements per relationship, never per copy. What the
    /// walk linked to the copies through those relationships goes first. The objects the lists
    /// name gain their version step with the other linked objects; each copy whose list changes
    /// gains one, as its own save of the list would have given it.
    func writeRootLinks(_ rootLinks: [(relationship: RelationshipDescription, ids: [Int64])],
                        root: EntityDescription, rootTag: Int) throws {
        guard !rootLinks.isEmpty else { return }
        let connection = context.connection, schema = context.schema
        let parameters: [SQLValue] = [.integer(Int64(rootTag)), .integer(plan.rootID)]
        // Emptying a list whose objects cannot be without an owner is refused, as the edit does.
        for (relationship, _) in rootLinks {
            guard let inverse = schema.model.inverse(of: relationship), !inverse.isToMany, !inverse.isOptional else { continue }
            if try connection.cachedStatement(SQLiteGraphCopySQL.rootLinkedByWalk(relationship, schema: schema)).scalar(parameters) != nil {
                throw StoreError.requiredRelationship(entity: relationship.destination, relationship: inverse.name)
            }
        }
        let bump = SQLiteGraphCopySQL.rootLinkVersionBump(root: root, relationships: rootLinks.map(\.relationship),
                                                          namesObjects: rootLinks.contains { !$0.ids.isEmpty }, schema: schema)
        try connection.cachedStatement(bump).execute(parameters)
        for (relationship, ids) in rootLinks {
            for removal in SQLiteGraphCopySQL.rootLinkRemovals(relationship, schema: schema) {
                try connection.cachedStatement(removal).execute(parameters)
            }
            guard !ids.isEmpty else { continue }
            for insert in SQLiteGraphCopySQL.rootLinkInserts(relationship, schema: schema) {
                try connection.cachedStatement(insert).execute(parameters + [SQLiteStoreContext.idArray(ids)])
            }
        }
    }
}
