import ClonerModel

/// Relationship rule 8 (docs/architecture.md#set-on-the-root, #many-copies): the to-many links a `set` gives the root (`"set": {"tags": [3,
/// 4]}`), written for every copy at once from the map — a fixed number of statements however many
/// copies there are. The first parameter is the root's entity tag and the second its id in every
/// statement, and the third the listed ids (in the listed order) in the inserts; each backend says
/// how it binds them and reads a list (`SQLDialect`), the statements are the same on both.
///
/// The walk does not follow the relationship a `set` replaces from the root, but a copied object
/// may still link back to the root's copy through its inverse (rule 4 re-points it to the copy):
/// those links are removed first, so the list is what the request says (rule 8). The rows left
/// are the ones one relationship edit per copy (`setToMany`) wrote, in the same order of copies.
struct RootLinkSQL<Dialect: SQLDialect> {
    /// The table of the root entity's map rows (its copy number is `cp`).
    let mapTable: String
    /// Whether that table holds other entities' rows too, told apart by `ent` (the first
    /// parameter); where it does not, the parameter is left unread.
    let mapNamesEntities: Bool

    /// The conditions that map row `m` is one of the root's copies.
    private var rootCopies: String {
        (mapNamesEntities ? "m.ent = \(Dialect.parameter(1)) AND " : "") + "m.old = \(Dialect.integer(2))"
    }
    /// The copies of the root.
    private var copies: String {
        "SELECT m.new FROM \(mapTable) AS m WHERE \(rootCopies)"
    }
    /// `FROM` the map as `m` with the listed ids, filtered to the root's copies.
    private var copiesWithList: String {
        "FROM \(mapTable) AS m, \(Dialect.listed(3)) WHERE \(rootCopies)"
    }

    /// Where a root's to-many is stored: `table`, with the root's copy in `owner` and the linked
    /// object in `other`.
    private struct RootLinkStorage {
        var table: String
        var owner: String
        var other: String
        /// A to-one inverse's column on the destination (with its position column): emptied, not deleted.
        var foreignKey: (column: String, position: String?)?
    }

    private func storage(_ relationship: RelationshipDescription, schema: StoreSchema) -> RootLinkStorage {
        switch schema.storage(of: relationship) {
        case let .joinTable(table, sourceColumn, destinationColumn, _):
            return RootLinkStorage(table: quoted(table), owner: quoted(sourceColumn), other: quoted(destinationColumn), foreignKey: nil)
        case let .foreignKeyOnDestination(column, position):
            return RootLinkStorage(
                table: quoted(relationship.destination), owner: quoted(column), other: "\"_id\"",
                foreignKey: (quoted(column), position.map(quoted)))
        case .foreignKeyOnSource:
            preconditionFailure("to-many \(relationship.qualifiedName) stored as a column on its source")
        }
    }

    /// A query for a copy the walk linked through `relationship`, if any (for a to-many whose
    /// inverse is to-one, the `set` can only empty it: linking would take objects from their owner).
    func linkedByWalk(_ relationship: RelationshipDescription, schema: StoreSchema) -> String {
        let storage = storage(relationship, schema: schema)
        return "SELECT 1 FROM \(storage.table) WHERE \(storage.owner) IN (\(copies)) LIMIT 1"
    }

    /// Removes what the walk linked to the roots' copies through `relationship`, with a version
    /// step for each object that loses its link when that changes its record (it has the inverse).
    func removals(_ relationship: RelationshipDescription, schema: StoreSchema) -> [String] {
        let storage = storage(relationship, schema: schema)
        if let foreignKey = storage.foreignKey {
            let position = foreignKey.position.map { ", \($0) = NULL" } ?? ""
            return [
                "UPDATE \(storage.table) SET \(foreignKey.column) = NULL\(position), \"_version\" = \"_version\" + 1 WHERE \(foreignKey.column) IN (\(copies))"
            ]
        }
        var statements: [String] = []
        if relationship.hasInverse {
            statements.append(
                """
                UPDATE \(quoted(relationship.destination)) SET "_version" = "_version" + 1 \
                WHERE "_id" IN (SELECT \(storage.other) FROM \(storage.table) WHERE \(storage.owner) IN (\(copies)))
                """)
        }
        // A self-inverse pair is stored both ways: its mirrored row goes too.
        let mirrored = relationship.isSelfInverse ? " OR \(storage.other) IN (\(copies))" : ""
        statements.append("DELETE FROM \(storage.table) WHERE \(storage.owner) IN (\(copies))\(mirrored)")
        return statements
    }

    /// The join rows of `relationship` for every copy, and for a self-inverse one (`Person.friends`)
    /// their mirrored rows, which that storage keeps so either side reads the pair. A `set` naming
    /// objects through a to-many whose inverse is to-one is refused before the store (it would
    /// take them from their owner), so only join tables reach here.
    /// `placed`: the places come from a fourth parameter, one per listed id (a part of a list
    /// declared into a hierarchy, placed in the whole list), not from the ids' own order.
    func inserts(_ relationship: RelationshipDescription, schema: StoreSchema, placed: Bool = false) -> [String] {
        guard case let .joinTable(tableName, sourceColumn, destinationColumn, position) = schema.storage(of: relationship) else {
            preconditionFailure("set links objects through \(relationship.qualifiedName), which is not stored in a join table")
        }
        guard let description = schema.joinTables.first(where: { $0.name == tableName }) else {
            preconditionFailure("no join table \(tableName) for \(relationship.qualifiedName)")
        }
        let table = quoted(tableName), source = quoted(sourceColumn), target = quoted(destinationColumn)
        // The other side's own position, when the inverse is an ordered to-many.
        let otherPosition = sourceColumn == "src" ? description.destinationPositionColumn : description.sourcePositionColumn
        let copies = copiesWithList

        var columns = [source, target], values = ["m.new", Dialect.listedID]
        if let position {
            columns.append(quoted(position))
            values.append(placed ? Dialect.listedPlace(in: 4) : Dialect.listedPlace)
        }
        if let otherPosition {
            columns.append(quoted(otherPosition))
            values.append(endOfList(table: table, position: quoted(otherPosition), owner: target))
        }
        var statements = ["INSERT INTO \(table) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) \(copies)"]
        if relationship.isSelfInverse {
            var mirrorColumns = [source, target], mirrorValues = [Dialect.listedID, "m.new"]
            if let position {
                mirrorColumns.append(quoted(position))
                mirrorValues.append(endOfList(table: table, position: quoted(position), owner: source))
            }
            statements.append("INSERT INTO \(table) (\(mirrorColumns.joined(separator: ", "))) SELECT \(mirrorValues.joined(separator: ", ")) \(copies)")
        }
        return statements
    }

    /// A copy's place at the end of a listed object's ordered list: after what the list held
    /// before the statement, in copy order (as one edit per copy appended them). Neither backend
    /// lets the INSERT's SELECT see the rows it writes (SQLite runs it to completion first,
    /// PostgreSQL reads its snapshot).
    private func endOfList(table: String, position: String, owner: String) -> String {
        "(SELECT coalesce(max(x.\(position)), -1) FROM \(table) AS x WHERE x.\(owner) = \(Dialect.listedID)) + row_number() OVER (PARTITION BY \(Dialect.listedID) ORDER BY m.cp)"
    }

    /// One version step for each copy of the root whose list changes, as the edit of its list gave
    /// each copy after its row was written: every copy when a list names objects, otherwise those
    /// the walk linked through one of `relationships`. Runs before the removals.
    func versionBump(
        root: EntityDescription, relationships: [RelationshipDescription], namesObjects: Bool,
        schema: StoreSchema
    ) -> String {
        let table = quoted(root.name)
        var sql = "UPDATE \(table) SET \"_version\" = \"_version\" + 1 WHERE \"_id\" IN (\(copies))"
        if !namesObjects {
            let linked = relationships.map { relationship -> String in
                let storage = storage(relationship, schema: schema)
                return "EXISTS (SELECT 1 FROM \(storage.table) AS x WHERE x.\(storage.owner) = \(table).\"_id\")"
            }
            sql += " AND (\(linked.joined(separator: " OR ")))"
        }
        return sql
    }

    /// The whole write, in the order it must run, for every root link of the plan; the backend
    /// runs each statement with its two root parameters (and the listed ids where `ids` is given).
    /// What the walk linked goes first; emptying a list whose objects need an owner is refused, as
    /// the relationship edit refuses it.
    func write(
        _ rootLinks: [(relationship: RelationshipDescription, ids: [Int64])], places: [String: [Int64]] = [:], root: EntityDescription,
        schema: StoreSchema, finds: (String) throws -> Bool,
        run: (_ statement: String, _ ids: [Int64]?, _ places: [Int64]?) throws -> Void
    ) throws {
        guard !rootLinks.isEmpty else { return }
        for (relationship, _) in rootLinks {
            guard let inverse = schema.model.inverse(of: relationship), !inverse.isToMany, !inverse.isOptional else { continue }
            if try finds(linkedByWalk(relationship, schema: schema)) {
                throw StoreError.requiredRelationship(entity: relationship.destination, relationship: inverse.name)
            }
        }
        try run(
            versionBump(
                root: root, relationships: rootLinks.map(\.relationship),
                namesObjects: rootLinks.contains { !$0.ids.isEmpty }, schema: schema), nil, nil)
        for (relationship, ids) in rootLinks {
            for removal in removals(relationship, schema: schema) { try run(removal, nil, nil) }
            guard !ids.isEmpty else { continue }
            let placed = places[relationship.name]
            for insert in inserts(relationship, schema: schema, placed: placed != nil) { try run(insert, ids, placed) }
        }
    }
}
