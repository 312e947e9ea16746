import ClonerModel

extension SQLiteGraphCopier {
    /// The to-many links a `set` gives the root (relationship rule 8, docs/architecture.md#set-on-the-root), for every copy at once
    /// (`RootLinkSQL`): statements per relationship, never per copy. The objects the lists name
    /// gain their version step with the other linked objects; each copy whose list changes gains
    /// one, as its own save of the list would have given it.
    func writeRootLinks(
        _ rootLinks: [(relationship: RelationshipDescription, ids: [Int64])],
        root: EntityDescription, rootTag: Int
    ) throws {
        let connection = context.connection
        let parameters: [SQLiteValue] = [.integer(Int64(rootTag)), .integer(plan.rootID)]
        try RootLinkSQL<SQLiteDialect>(mapTable: SQLiteGraphCopySQL.mapTable(of: rootTag), mapNamesEntities: false).write(
            rootLinks, places: plan.rootLinkPlaces, root: root, schema: context.schema,
            finds: { query in
                try connection.cachedStatement(query).scalar(parameters) != nil
            },
            run: { statement, ids, places in
                let lists = [ids, places].compactMap { $0.map(SQLiteStoreContext.idArray) }
                try connection.cachedStatement(statement).execute(parameters + lists)
            })
    }
}
