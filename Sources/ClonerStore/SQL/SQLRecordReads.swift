import ClonerModel

/// The statements that read records of one entity, in a backend's dialect: a record by `_id`,
/// records by a list of `_id`s (`SQLRecordColumns`), and per relationship stored elsewhere its
/// `(source, destination)` rows for one source or a list of them. Built once per schema
/// (`SQLReadStatements`); a backend prepares each once per connection, under its slot or by its
/// text.
struct SQLRecordReads: Sendable {
    /// A statement's text, with the slot a connection may keep it under.
    struct Query: Sendable {
        let sql: String
        let slot: Int
    }

    /// A relationship whose destinations live in another table (or a join table).
    struct Related: Sendable {
        /// Index in `entity.relationships`.
        let relationship: Int
        let isToMany: Bool
        /// An ordered to-many part of a field declared into a hierarchy: its rows read their
        /// position third, the place in the declared list (`StoredRecords.listPlaces`).
        let readsPlaces: Bool
        /// `(source, destination)` rows for one source and for a list of sources.
        let forOne: Query
        let forMany: Query
    }

    let entity: EntityDescription
    /// The columns of a record (`SQLRecordColumns`): `"_id", "_version"`, attributes…, reference
    /// columns…, binary keys and sizes…, the clone's source.
    let columns: String
    /// The to-one columns stored on the row, in relationship order.
    let ownColumns: [String]
    /// A to-one stored on the row: relationship index and its column's index in `columns`.
    let ownToOnes: [(relationship: Int, column: Int)]
    /// Per binary attribute, the columns of its key and its size, counted from `"_id"`.
    let blobColumns: [(attribute: Int, key: Int, size: Int)]
    /// The column of the source the record was cloned from (`SQLRecordColumns.clonedFrom`).
    let clonedFromColumn: Int
    let related: [Related]
    let byID: Query
    let byIDs: Query

    /// The statements for `entity`, each given the next of `slots`.
    init<Dialect: SQLDialect>(entity: EntityDescription, schema: StoreSchema, dialect: Dialect.Type, slots: inout Int) {
        func query(_ sql: String, _ slots: inout Int) -> Query {
            defer { slots += 1 }
            return Query(sql: sql, slot: slots)
        }
        var ownToOnes: [(relationship: Int, column: Int)] = []
        var ownColumns: [String] = []
        var related: [Related] = []
        for (index, relationship) in entity.relationships.enumerated() {
            if case .foreignKeyOnSource(let column) = schema.storage(of: relationship) {
                ownToOnes.append((relationship: index, column: 2 + entity.attributes.count + ownColumns.count))
                ownColumns.append(column)
                continue
            }
            let join = schema.join(for: relationship)
            let readsPlaces = relationship.isHierarchyPart && relationship.isToMany && join.positionColumn != nil
            related.append(
                Related(
                    relationship: index, isToMany: relationship.isToMany, readsPlaces: readsPlaces,
                    forOne: query(
                        Self.destinationsSQL(join, sources: "= \(Dialect.parameter(1))", withPlace: readsPlaces, dialect: Dialect.self), &slots),
                    forMany: query(Self.destinationsSQL(join, sources: Dialect.among(1), withPlace: readsPlaces, dialect: Dialect.self), &slots)))
        }
        let columns = SQLRecordColumns.selectList(entity: entity, ownColumns: ownColumns).joined(separator: ", ")
        let table = quoted(entity.name)
        self.entity = entity
        self.columns = columns
        self.ownColumns = ownColumns
        self.ownToOnes = ownToOnes
        self.blobColumns = SQLRecordColumns.blobColumns(entity: entity, ownColumns: ownColumns.count)
        self.clonedFromColumn = SQLRecordColumns.clonedFromColumn(entity: entity, ownColumns: ownColumns.count)
        self.related = related
        byID = query("SELECT \(columns) FROM \(table) WHERE \"_id\" = \(Dialect.parameter(1))", &slots)
        byIDs = query("SELECT \(columns) FROM \(table) WHERE \"_id\" \(Dialect.among(1))", &slots)
    }

    /// (source, destination) pairs of `join` for the sources `sources` selects (`= ?1`, `IN (…)`),
    /// in each source's order: by position when ordered (NULL first, as SQLite sorts it), else by
    /// destination `_id`; `withPlace` reads the position third.
    static func destinationsSQL<Dialect: SQLDialect>(
        _ join: RelationshipJoin, sources: String, withPlace: Bool = false, dialect: Dialect.Type
    ) -> String {
        let source = quoted(join.sourceColumn)
        let destination = quoted(join.destinationColumn)
        let order = [source] + (join.positionColumn.map { [Dialect.ascendingNullsFirst(quoted($0))] } ?? []) + [destination]
        let place = withPlace ? join.positionColumn.map { ", \(quoted($0))" } ?? "" : ""
        return "SELECT \(source), \(destination)\(place) FROM \(quoted(join.table)) WHERE \(source) \(sources) "
            + "AND \(destination) IS NOT NULL ORDER BY \(order.joined(separator: ", "))"
    }
}
