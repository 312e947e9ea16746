import ClonerModel

/// The SQL text of the read routes' statements (records by `_id`, `SQLRecordReads`) and of the
/// export's reads, built and quoted once per schema in a backend's dialect rather than on every
/// request, each with a slot number under which a backend that keeps prepared statements in an
/// array finds its own (SQLite's `preparedStatement(slot:sql:)`: no hashing of SQL text); one
/// that keeps them by their text ignores the slot.
final class SQLReadStatements: Sendable {
    typealias Query = SQLRecordReads.Query

    struct EntityReads: Sendable {
        /// The record reads, as every backend runs them.
        let records: SQLRecordReads
        /// For an export (`readGraphRecords`): `"_id"`, the attributes' own columns (a binary
        /// one's blob key, not its bytes), the reference columns, then each binary value's size,
        /// for a list of `_id`s.
        let graphRows: Query
        /// Per binary attribute (its index in the entity's attributes): `(_id, chunk bytes)` rows
        /// of its blobs for a list of `_id`s (those of values of at most
        /// `GraphRecordBatch.streamedBinaryBytes`: a larger one is streamed), in order of `_id`
        /// then chunk — the bytes read as they are stored, for the export's own buffers.
        let graphChunks: [(attribute: Int, query: Query)]
        /// Per relationship (in model order): `(source, destination)` rows for a list of
        /// sources, as `destinationIDs` reads them.
        let destinations: [Query]

        var entity: EntityDescription { records.entity }
    }

    let entities: [String: EntityReads]
    /// Slots used by these queries; page queries built per request use none.
    let slotCount: Int

    init<Dialect: SQLDialect>(schema: StoreSchema, dialect: Dialect.Type) {
        var slot = 0
        func query(_ sql: String) -> Query {
            defer { slot += 1 }
            return Query(sql: sql, slot: slot)
        }
        var entities: [String: EntityReads] = [:]
        for entity in schema.model.entities {
            let records = SQLRecordReads(entity: entity, schema: schema, dialect: Dialect.self, slots: &slot)
            let table = quoted(entity.name)
            let among = Dialect.among(1)
            let graphColumns =
                (["\"_id\""] + entity.attributes.map { quoted($0.name) } + records.ownColumns.map(quoted)
                + entity.attributes.filter { $0.type == .binary }.map {
                    "(SELECT \(SQLRecordColumns.blob).\"size\" FROM \(quoted(StoreSchema.blobTable)) \(SQLRecordColumns.blob) "
                        + "WHERE \(SQLRecordColumns.blob).\"hash\" = \(table).\(quoted($0.name)))"
                }).joined(separator: ", ")
            let graphChunks = entity.attributes.enumerated().filter { $0.element.type == .binary }.map { attribute, description in
                (
                    attribute: attribute,
                    query: query(
                        "SELECT t.\"_id\", c.\"bytes\" FROM \(table) AS t JOIN \(quoted(StoreSchema.blobChunkTable)) AS c "
                            + "ON c.\"hash\" = t.\(quoted(description.name)) WHERE t.\"_id\" \(among) ORDER BY t.\"_id\", c.\"n\"")
                )
            }
            var destinations: [Query] = []
            for (index, relationship) in entity.relationships.enumerated() {
                if let known = records.related.first(where: { $0.relationship == index }) {
                    destinations.append(known.forMany)
                } else {
                    let sql = SQLRecordReads.destinationsSQL(schema.join(for: relationship), sources: among, dialect: Dialect.self)
                    destinations.append(query(sql))
                }
            }
            entities[entity.name] = EntityReads(
                records: records, graphRows: query("SELECT \(graphColumns) FROM \(table) WHERE \"_id\" \(among)"),
                graphChunks: graphChunks, destinations: destinations)
        }
        self.entities = entities
        self.slotCount = slot
    }

    func reads(_ entity: String) -> EntityReads {
        guard let reads = entities[entity] else { preconditionFailure("unknown entity \(entity)") }
        return reads
    }
}
