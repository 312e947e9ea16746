import ClonerModel

extension PostgreSQLGraphCopier {
    /// The to-many links a `set` gives the root (relationship rule 8, docs/architecture.md#set-on-the-root), for every copy at once
    /// (`RootLinkSQL`): statements per relationship, never per copy. The objects the lists name
    /// gain their version step with the other linked objects; each copy whose list changes gains
    /// one, as its own save of the list would have given it.
    mutating func writeRootLinks(
        _ rootLinks: [(relationship: RelationshipDescription, ids: [Int64])],
        root: EntityDescription, rootTag: Int
    ) throws {
        let parameters: [PostgreSQLValue] = [.int8(Int64(rootTag)), .int8(plan.rootID)]
        try RootLinkSQL<PostgreSQLDialect>(mapTable: PostgreSQLGraphCopySQL.mapTable, mapNamesEntities: true).write(
            rootLinks, places: plan.rootLinkPlaces, root: root, schema: context.schema,
            finds: { query in
                try self.query(query, parameters).rowCount > 0
            },
            run: { statement, ids, places in
                let lists = [ids, places].compactMap { $0.map(PostgreSQLStoreContext.idArray) }
                try self.query(statement, parameters + lists)
            })
    }
}
