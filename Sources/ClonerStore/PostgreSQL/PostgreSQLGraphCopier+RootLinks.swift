import ClonerModel

extension PostgreSQLGraphCopier {
    /// The to-many links a `set` gives the root (DESIGN.md §3 rule 8), for every copy at once
    /// (`PostgreSQLGraphCopySQL+RootLinks`): statements per relationship, never per copy. What the
    /// walk linked to the copies through those relationships goes first. The objects the lists
    /// name gain their version step with the other linked objects; each copy whose list changes
    /// gains one, as its own save of the list would have given it.
    mutating func writeRootLinks(_ rootLinks: [(relationship: RelationshipDescription, ids: [Int64])],
                                 root: EntityDescription, rootTag: Int) throws {
        guard !rootLinks.isEmpty else { return }
        let schema = context.schema
        let parameters: [PostgreSQLValue] = [.int8(Int64(rootTag)), .int8(plan.rootID)]
        // Emptying a list whose objects cannot be without an owner is refused, as the edit does.
        for (relationship, _) in rootLinks {
            guard let inverse = schema.model.inverse(of: relationship), !inverse.isToMany, !inverse.isOptional else { continue }
            if try query(PostgreSQLGraphCopySQL.rootLinkedByWalk(relationship, schema: schema), parameters).rowCount > 0 {
                throw StoreError.requiredRelationship(entity: relationship.destination, relationship: inverse.name)
            }
        }
        let bump = PostgreSQLGraphCopySQL.rootLinkVersionBump(root: root, relationships: rootLinks.map(\.relationship),
                                                              namesObjects: rootLinks.contains { !$0.ids.isEmpty }, schema: schema)
        try query(bump, parameters)
        for (relationship, ids) in rootLinks {
            for removal in PostgreSQLGraphCopySQL.rootLinkRemovals(relationship, schema: schema) {
                try query(removal, parameters)
            }
            guard !ids.isEmpty else { continue }
            for insert in PostgreSQLGraphCopySQL.rootLinkInserts(relationship, schema: schema) {
                try query(insert, parameters + [PostgreSQLStoreContext.idArray(ids)])
            }
        }
    }
}
