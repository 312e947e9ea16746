import ClonerModel

/// DESIGN.md §3 rule 8 with §3a: the to-many links a `set` gives the root (`"set": {"tags": [3,
/// 4]}`), written for every copy at once from the map — a fixed number of statements however many
/// copies there are. Each statement takes $1 the listed ids (in the listed order), $2 the root's
/// entity tag and $3 the root's id.
///
/// The copies are fresh and the walk skipped the relationship a `set` replaces, so they have no
/// links through it yet: only inserts, no removals. Their rows are the ones one relationship
/// edit per copy (`setToMany`) would write, in the same order of copies.
extension PostgreSQLGraphCopySQL {
    /// The join rows of `relationship` for every copy, and for a self-inverse one (`Person.friends`)
    /// their mirrored rows, which that storage keeps so either side reads the pair. A `set` through
    /// a to-many whose inverse is to-one is refused before the store (it would take the objects from
    /// their owner), so only join tables reach here.
    static func rootLinkInserts(_ relationship: RelationshipDescription, schema: StoreSchema) -> [String] {
        guard case let .joinTable(tableName, sourceColumn, destinationColumn, position) = schema.storage(of: relationship) else {
            preconditionFailure("set links \(relationship.qualifiedName), which is not stored in a join table")
        }
        guard let description = schema.joinTables.first(where: { $0.name == tableName }) else {
            preconditionFailure("no join table \(tableName) for \(relationship.qualifiedName)")
        }
        let table = quoted(tableName), source = quoted(sourceColumn), target = quoted(destinationColumn)
        // The other side's own position, when the inverse is an ordered to-many.
        let otherPosition = sourceColumn == "src" ? description.destinationPositionColumn : description.sourcePositionColumn
        let copies = """
            FROM \(mapTable) AS m CROSS JOIN unnest($1::int8[]) WITH ORDINALITY AS a(id, ord) \
            WHERE m.ent = $2::int4 AND m.old = $3::int8 ON CONFLICT DO NOTHING
            """

        var columns = [source, target], values = ["m.new", "a.id"]
        if let position {
            columns.append(quoted(position))
            values.append("a.ord - 1")
        }
        if let otherPosition {
            columns.append(quoted(otherPosition))
            values.append(endOfList(table: table, position: quoted(otherPosition), owner: target))
        }
        var statements = ["INSERT INTO \(table) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) \(copies)"]
        if relationship.isSelfInverse {
            var mirrorColumns = [source, target], mirrorValues = ["a.id", "m.new"]
            if let position {
                mirrorColumns.append(quoted(position))
                mirrorValues.append(endOfList(table: table, position: quoted(position), owner: source))
            }
            statements.append("INSERT INTO \(table) (\(mirrorColumns.joined(separator: ", "))) SELECT \(mirrorValues.joined(separator: ", ")) \(copies)")
        }
        return statements
    }

    /// A copy's place at the end of listed object `a.id`'s ordered list: after what the list held
    /// before the statement (its snapshot does not see its own rows), in copy order (as one edit
    /// per copy appended them).
    private static func endOfList(table: String, position: String, owner: String) -> String {
        "(SELECT coalesce(max(x.\(position)), -1) FROM \(table) AS x WHERE x.\(owner) = a.id) + row_number() OVER (PARTITION BY a.id ORDER BY m.cp)"
    }

    /// One version step for every copy of the root ($1 its entity tag, $2 its id), as the edit of
    /// its list gave each copy after its row was written.
    static func rootLinkVersionBump(root: EntityDescription) -> String {
        "UPDATE \(quoted(root.name)) SET \"_version\" = \"_version\" + 1 WHERE \"_id\" IN (SELECT new FROM \(mapTable) WHERE ent = $1::int4 AND old = $2::int8)"
    }
}
