import ClonerModel

/// How a `StoreSchema` (the backend-neutral model → storage mapping: which relationship is a
/// column where, join tables, position columns) is laid out in PostgreSQL: the tables, indexes and
/// reference constraints are the DDL written once (`SQLDialect+Schema.swift`, in
/// `PostgreSQLDialect`'s spellings); this type holds what PostgreSQL adds to it, the identifier
/// limit and the unique indexes' names.
///
/// The layout is the SQLite store's, table for table and column for column, so the two answer
/// alike: `_id int8` from the table's identity sequence (never reused, as SQLite's AUTOINCREMENT),
/// `_version int8`, reference columns `DEFERRABLE INITIALLY DEFERRED` (a graph is inserted entity
/// after entity, cycles included), join tables whose rows go with either end. Types follow
/// docs/architecture.md#postgresql; strings and JSON are `text COLLATE "C"` — byte order, like SQLite's BINARY
/// collation, so sorting and keyset cursors agree with the SQLite store whatever the database's
/// default collation.
///
/// PostgreSQL truncates identifiers past 63 bytes (NAMEDATALEN − 1), so two long names could
/// silently become one table. Entity and relationship names over the limit are refused when the
/// store opens (`identifierProblems`); index names the store makes up are shortened with a hash
/// instead, and `uniqueIndexes` maps each back to its entity and attributes.
struct PostgreSQLSchema: Sendable {
    let schema: StoreSchema
    /// Unique index name → the entity and attributes it guards (one attribute for `unique`, the
    /// group for `uniqueTogether`): how SQLSTATE 23505's constraint name becomes a model error.
    let uniqueIndexes: [String: (entity: String, attributes: [String], isGroup: Bool)]

    /// The read statements, built once (the connection keeps them prepared by their text).
    let readStatements: SQLReadStatements
    /// Each entity's `_id` sequence by entity number, as the database names it; empty until the
    /// store has read them as it opens (`readIDSequences`).
    var idSequences: [String] = []

    /// PostgreSQL's longest identifier, in bytes.
    static let maximumIdentifierLength = 63

    init(schema: StoreSchema) {
        self.schema = schema
        var unique: [String: (entity: String, attributes: [String], isGroup: Bool)] = [:]
        for entity in schema.model.entities {
            for attribute in entity.attributes where attribute.isUnique {
                unique[PostgreSQLDialect.uniqueIndexName(entity: entity.name, attribute: attribute.name)] = (entity.name, [attribute.name], false)
            }
            for group in entity.uniqueTogether {
                unique[PostgreSQLDialect.uniqueTogetherIndexName(entity: entity.name, attributes: group)] = (entity.name, group, true)
            }
        }
        uniqueIndexes = unique
        readStatements = SQLReadStatements(schema: schema, dialect: PostgreSQLDialect.self)
    }

    var model: DataModel { schema.model }

    /// Names the model would need PostgreSQL to truncate: tables, columns, join tables.
    func identifierProblems() -> [String] {
        var problems: [String] = []
        func check(_ name: String, _ what: String) {
            if name.utf8.count > Self.maximumIdentifierLength {
                problems.append("\(what) \(name) is \(name.utf8.count) bytes long; PostgreSQL identifiers hold at most \(Self.maximumIdentifierLength)")
            }
        }
        for entity in model.entities {
            check(entity.name, "entity")
            for attribute in entity.attributes { check(attribute.name, "attribute \(entity.name).") }
            for foreignKey in schema.foreignKeys[entity.name] ?? [] {
                check(foreignKey.column, "relationship \(entity.name).")
                if let position = foreignKey.positionColumn { check(position, "position column of \(entity.name).") }
            }
        }
        for joinTable in schema.joinTables { check(joinTable.name, "join table") }
        return problems
    }

    // MARK: - names

    /// `name` itself when PostgreSQL keeps it whole; otherwise a prefix and a hash of the whole
    /// name, so distinct long names stay distinct.
    static func identifier(_ name: String) -> String {
        guard name.utf8.count > maximumIdentifierLength else { return name }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        var prefix = ""
        for character in name where prefix.utf8.count + character.utf8.count <= 46 { prefix.append(character) }
        return prefix + "_" + String(hash, radix: 16)
    }

    // MARK: - blobs (docs/architecture.md#shared-blobs)

    /// The blob rows and their chunks. Chunks are stored uncompressed (STORAGE EXTERNAL): the
    /// values are mostly compressed media already, and a streamed read of a chunk's part then
    /// fetches only the TOAST slices it needs.
    static let blobCreateStatements = [
        "CREATE TABLE IF NOT EXISTS \(quoted(StoreSchema.blobTable)) (\"hash\" bytea PRIMARY KEY, \"size\" int8 NOT NULL)",
        """
        CREATE TABLE IF NOT EXISTS \(quoted(StoreSchema.blobChunkTable)) (\"hash\" bytea NOT NULL REFERENCES \(quoted(StoreSchema.blobTable)) (\"hash\") ON DELETE CASCADE ON UPDATE CASCADE, \
        \"n\" int8 NOT NULL, \"bytes\" bytea NOT NULL, PRIMARY KEY (\"hash\", \"n\"))
        """,
        "ALTER TABLE \(quoted(StoreSchema.blobChunkTable)) ALTER COLUMN \"bytes\" SET STORAGE EXTERNAL",
    ]

}
