import ClonerModel

extension SQLiteGraphCopier {
    /// The to-many links a `set` gives the root (DESIGN.md §3 rule 8), for every copy at once
    /// (`SQLiteGraphCopySQL.rootLinkInserts`): statements per relationship, never per copy. The
    /// objects they name gain their version step with the other linked objects; each copy whose
    /// list was set gains one, as its own save of the list would have given it.
    func writeRootLinks(_ rootLinks: [(relationship: RelationshipDescription, ids: [Int64])],
                        root: EntityDescription, rootTag: Int) throws {
        let connection = context.connection
        let parameters: [SQLValue] = [.integer(Int64(rootTag)), .integer(plan.rootID)]
        var linked = false
        for (relationship, ids) in rootLinks where !ids.isEmpty {
            for insert in SQLiteGraphCopySQL.rootLinkInserts(relationship, schema: context.schema) {
                try connection.cachedStatement(insert).execute([SQLiteStoreContext.idArray(ids)] + parameters)
            }
            linked = true
        }
        if linked {
            try connection.cachedStatement(SQLiteGraphCopySQL.rootLinkVersionBump(root: root)).execute(parameters)
        }
    }
}
