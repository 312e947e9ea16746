import ClonerModel

/// The SQL text of the read routes' statements (a record by `_id`, records by `_id`s, a
/// relationship's destinations), built and quoted once per schema rather than on every request,
/// each with a slot number under which a connection keeps its prepared statement
/// (`SQLiteConnection.preparedStatement(slot:sql:)`: an array index, no hashing of SQL text).
final class SQLiteReadSQL: Sendable {
    /// A relationship whose destinations live in another table (or a join table).
    struct Related: Sendable {
        /// Index in `entity.relationships`.
        let relationship: Int
        let isToMany: Bool
        /// `(source, destination)` rows for one source (`= ?`) and for a JSON array of sources.
        let forOne: Query
        let forMany: Query
    }

    struct Query: Sendable {
        let sql: String
        let slot: Int
    }

    struct EntityReads: Sendable {
        let entity: EntityDescription
        /// The columns of a record (`SQLRecordColumns`): `"_id", "_version"`, attributes…, reference
        /// columns…, binary sizes….
        let columns: String
        /// Per binary attribute, the columns of its key and its size, counted from `"_id"`.
        let blobColumns: [(attribute: Int, key: Int, size: Int)]
        let table: String
        /// A to-one stored on the row: relationship index and its column's index in `columns`.
        let ownToOnes: [(relationship: Int, column: Int)]
        let related: [Related]
        let byID: Query
        let byIDs: Query
        /// For an export (`readGraphRecords`): `"_id"`, the attributes' own columns (a binary
        /// one's blob key, not its bytes), the reference columns, then each binary value's size,
        /// for a JSON array of `_id`s.
        let graphRows: Query
        /// Per binary attribute (its index in the entity's attributes): `(_id, chunk bytes)` rows
        /// of its blobs for a JSON array of `_id`s (those of values of at most
        /// `GraphRecordBatch.streamedBinaryBytes`: a larger one is streamed), in order of `_id`
        /// then chunk — the bytes read as they are stored, for the export's own buffers.
        let graphChunks: [(attribute: Int, query: Query)]
        /// Per relationship (in model order): `(source, destination)` rows for a JSON array of
        /// sources, as `destinationIDs` reads them.
        let destinations: [Query]
    }

    let entities: [String: EntityReads]
    /// Slots used by these queries; page queries built per request use none.
    let slotCount: Int

    init(schema: StoreSchema) {
        var slot = 0
        func query(_ sql: String) -> Query {
            defer { slot += 1 }
            return Query(sql: sql, slot: slot)
        }
        var entities: [String: EntityReads] = [:]
        for entity in schema.model.entities {
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
                related.append(
                    Related(
                        relationship: index, isToMany: relationship.isToMany,
                        forOne: query(Self.destinations(join, sources: "= ?")),
                        forMany: query(Self.destinations(join, sources: "IN (\(SQLiteStoreContext.idsFromArray))"))))
            }
            let columns = SQLRecordColumns.selectList(entity: entity, ownColumns: ownColumns).joined(separator: ", ")
            let blobColumns = SQLRecordColumns.blobColumns(entity: entity, ownColumns: ownColumns.count)
            let table = quoted(entity.name)
            let among = "IN (\(SQLiteStoreContext.idsFromArray))"
            let binaryAttributes = entity.attributes.filter { $0.type == .binary }
            let graphColumns =
                (["\"_id\""] + entity.attributes.map { quoted($0.name) } + ownColumns.map(quoted)
                + binaryAttributes.map {
                    "(SELECT \(SQLRecordColumns.blob).\"size\" FROM \(quoted(StoreSchema.blobTable)) \(SQLRecordColumns.blob) "
                        + "WHERE \(SQLRecordColumns.blob).\"hash\" = \(table).\(quoted($0.name)))"
                }).joined(separator: ", ")
            let graphChunks = entity.attributes.enumerated().filter { $0.element.type == .binary }.map { attribute, description in
                (
                    attribute: attribute,
                    query: query(
                        "SELECT t.\"_id\", c.\"bytes\" FROM \(table) AS t JOIN main.\(quoted(StoreSchema.blobChunkTable)) AS c "
                            + "ON c.\"hash\" = t.\(quoted(description.name)) WHERE t.\"_id\" \(among) ORDER BY t.\"_id\", c.\"n\"")
                )
            }
            var destinations: [Query] = []
            for (index, relationship) in entity.relationships.enumerated() {
                if let known = related.first(where: { $0.relationship == index }) {
                    destinations.append(known.forMany)
                } else {
                    destinations.append(query(Self.destinations(schema.join(for: relationship), sources: among)))
                }
            }
            entities[entity.name] = EntityReads(
                entity: entity, columns: columns, blobColumns: blobColumns, table: table, ownToOnes: ownToOnes, related: related,
                byID: query("SELECT \(columns) FROM \(table) WHERE \"_id\" = ?"),
                byIDs: query("SELECT \(columns) FROM \(table) WHERE \"_id\" \(among)"),
                graphRows: query("SELECT \(graphColumns) FROM \(table) WHERE \"_id\" \(among)"),
                graphChunks: graphChunks, destinations: destinations)
        }
        self.entities = entities
        self.slotCount = slot
    }

    /// (source, destination) pairs of `join` for the sources `sources` selects (`= ?`, `IN (…)`),
    /// in each source's order: by position when ordered, else by destination `_id`.
    static func destinations(_ join: RelationshipJoin, sources: String) -> String {
        let source = quoted(join.sourceColumn)
        let destination = quoted(join.destinationColumn)
        let order = [source] + (join.positionColumn.map { [quoted($0)] } ?? []) + [destination]
        return "SELECT \(source), \(destination) FROM \(quoted(join.table)) WHERE \(source) \(sources) "
            + "AND \(destination) IS NOT NULL ORDER BY \(order.joined(separator: ", "))"
    }

    func reads(_ entity: String) -> EntityReads {
        guard let reads = entities[entity] else { preconditionFailure("unknown entity \(entity)") }
        return reads
    }
}
