import ClonerModel

extension GraphCopySQLBuilder {
    /// After a unique violation on `attributes` of `name` (one of the entities this clone copies,
    /// `copied`): the query for the first copy whose rows repeat a value — of the entity's rows
    /// that were there before, or of an earlier row, lower copies first — the same values the
    /// inserts would write, nulls never clashing (`GraphCopyClashQuery`). `rowsKept`: the copy's
    /// own rows are still in the table (SQLite asks inside the failed statement's transaction;
    /// PostgreSQL first rolls the writes back to a savepoint, since an aborted transaction
    /// answers no query), so they are not counted as earlier ones, and the parents' values read
    /// through the map are still there. Nil when `name` is not copied or an attribute is unknown.
    func clashingCopyQuery(entity name: String, attributes: [String], copied: Bool, rowsKept: Bool) -> String? {
        guard let entity = model.entity(named: name), copied else { return nil }
        let described = attributes.compactMap { entity.attribute(named: $0) }
        guard described.count == attributes.count, !described.isEmpty else { return nil }
        let entityTag = tag(name)
        return GraphCopyClashQuery.sql(
            values: described.map { attributeExpression(entity, $0, readsParents: rowsKept) }, columns: described.map { quoted($0.name) },
            table: quoted(name), map: Self.mapTable(of: entityTag), entityRows: Self.mapNamesEntities ? "m.ent = \(entityTag)" : nil,
            copyColumn: "cp", excludingOwnRows: rowsKept)
    }
}
