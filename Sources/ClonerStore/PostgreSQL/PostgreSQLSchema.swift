import ClonerModel

/// How a `StoreSchema` (the backend-neutral model → storage mapping: which relationship is a
/// column where, join tables, position columns) is laid out in PostgreSQL, and the DDL for it.
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

    /// PostgreSQL's longest identifier, in bytes.
    static let maximumIdentifierLength = 63

    init(schema: StoreSchema) {
        self.schema = schema
        var unique: [String: (entity: String, attributes: [String], isGroup: Bool)] = [:]
        for entity in schema.model.entities {
            for attribute in entity.attributes where attribute.isUnique {
                unique[Self.uniqueIndexName(entity: entity.name, attribute: attribute.name)] = (entity.name, [attribute.name], false)
            }
            for group in entity.uniqueTogether {
                unique[Self.uniqueTogetherIndexName(entity: entity.name, attributes: group)] = (entity.name, group, true)
            }
        }
        uniqueIndexes = unique
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

    static func uniqueIndexName(entity: String, attribute: String) -> String {
        identifier("\(entity)_\(attribute)_unique")
    }

    /// Parentheses and commas cannot occur in model names, so this never collides with
    /// `uniqueIndexName` (the SQLite store's scheme).
    static func uniqueTogetherIndexName(entity: String, attributes: [String]) -> String {
        identifier("\(entity)(\(attributes.joined(separator: ",")))_unique")
    }

    static func foreignKeyIndexName(_ foreignKey: ForeignKeyDescription) -> String {
        identifier("\(foreignKey.entity)_\(foreignKey.column)_fk")
    }

    // MARK: - types

    static func columnType(_ type: AttributeType) -> String {
        switch type {
        case .string, .json: return "text COLLATE \"C\""
        case .integer: return "int8"
        case .double: return "float8"
        case .boolean: return "boolean"
        case .date: return "timestamptz"
        case .uuid: return "uuid"
        case .binary: return "bytea"
        }
    }

    /// A constant for a DEFAULT clause, as PostgreSQL reads it back for rows that existed before
    /// the column was added.
    static func literal(_ value: AttributeValue) -> String {
        func text(_ string: String) -> String { "'" + string.replacingOccurrences(of: "'", with: "''") + "'" }
        switch value {
        case .null: return "NULL"
        case .string(let v), .json(let v): return text(v)
        case .integer(let v): return "\(v)::int8"
        case .double(let v):
            if v.isNaN { return "'NaN'::float8" }
            if v.isInfinite { return v > 0 ? "'Infinity'::float8" : "'-Infinity'::float8" }
            return "'\(v)'::float8"
        case .boolean(let v): return v ? "true" : "false"
        case .date(let ms):
            return "to_timestamp(\(ms / 1000)::float8) + interval '\(ms % 1000) milliseconds'"
        case .uuid(let v): return "'\(v.uuidString.lowercased())'::uuid"
        case .binary(let v): return "'\\x" + v.map { String(format: "%02x", $0) }.joined() + "'::bytea"
        }
    }

    // MARK: - DDL

    /// Requiredness is the save path's job, not NOT NULL's, exactly as on SQLite: a migration that
    /// makes an attribute optional must not need a table rewrite on either backend.
    ///
    /// A binary column holds its blob's key (its reference constraint is `blobReferenceStatements`)
    /// and has no DEFAULT: the save path writes a default's key itself.
    static func columnDefinition(_ attribute: AttributeDescription) -> String {
        var definition = "\(quoted(attribute.name)) \(columnType(attribute.type))"
        if attribute.type == .binary { return definition }
        if let value = attribute.defaultValue, !value.isNull { definition += " DEFAULT \(literal(value))" }
        return definition
    }

    /// A reference column and its position column; the reference's constraint comes separately
    /// (`constraintStatement`), once every table it may name exists.
    static func columnDefinitions(_ foreignKey: ForeignKeyDescription) -> [String] {
        var columns = ["\(quoted(foreignKey.column)) int8"]
        if let position = foreignKey.positionColumn { columns.append("\(quoted(position)) int8") }
        return columns
    }

    /// Reference columns are checked at COMMIT (deferred), as on SQLite: a graph is inserted
    /// entity after entity, and cycles (a card's `next` pointing at another new card) cannot be
    /// ordered otherwise.
    static func constraintStatement(_ foreignKey: ForeignKeyDescription) -> String {
        "ALTER TABLE \(quoted(foreignKey.entity)) ADD CONSTRAINT \(quoted(identifier("\(foreignKey.entity)_\(foreignKey.column)_ref")))"
            + " FOREIGN KEY (\(quoted(foreignKey.column))) REFERENCES \(quoted(foreignKey.referencedEntity))(\"_id\") DEFERRABLE INITIALLY DEFERRED"
    }

    /// Every reference column is indexed: delete rules, inverse reads and the clone's joins go
    /// through it from the referenced side.
    static func indexStatements(_ foreignKey: ForeignKeyDescription) -> [String] {
        let name = quoted(foreignKeyIndexName(foreignKey))
        let table = quoted(foreignKey.entity)
        if foreignKey.isUnique {
            return ["CREATE UNIQUE INDEX IF NOT EXISTS \(name) ON \(table) (\(quoted(foreignKey.column)))"]
        }
        let columns = foreignKey.positionColumn.map { "\(quoted(foreignKey.column)), \(quoted($0))" } ?? quoted(foreignKey.column)
        return ["CREATE INDEX IF NOT EXISTS \(name) ON \(table) (\(columns))"]
    }

    static func uniqueIndexStatement(entity: String, attribute: String) -> String {
        "CREATE UNIQUE INDEX IF NOT EXISTS \(quoted(uniqueIndexName(entity: entity, attribute: attribute))) ON \(quoted(entity)) (\(quoted(attribute)))"
    }

    static func uniqueTogetherIndexStatement(entity: String, attributes: [String]) -> String {
        let columns = attributes.map(quoted).joined(separator: ", ")
        return "CREATE UNIQUE INDEX IF NOT EXISTS \(quoted(uniqueTogetherIndexName(entity: entity, attributes: attributes))) ON \(quoted(entity)) (\(columns))"
    }

    /// CREATE TABLE and its indexes for one entity; its reference constraints are
    /// `constraintStatements(for:)`.
    func createStatements(for entity: EntityDescription) -> [String] {
        var columns = ["\"_id\" int8 GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", "\"_version\" int8 NOT NULL DEFAULT 1"]
        let references = schema.foreignKeys[entity.name] ?? []
        columns += references.flatMap(Self.columnDefinitions)
        columns += entity.attributes.map(Self.columnDefinition)
        var statements = ["CREATE TABLE \(quoted(entity.name)) (\n  \(columns.joined(separator: ",\n  "))\n)"]
        statements += references.flatMap(Self.indexStatements)
        statements += entity.attributes.filter(\.isUnique).map { Self.uniqueIndexStatement(entity: entity.name, attribute: $0.name) }
        statements += entity.uniqueTogether.map { Self.uniqueTogetherIndexStatement(entity: entity.name, attributes: $0) }
        return statements
    }

    /// Join rows vanish with either end (ON DELETE CASCADE): a pair cannot outlive its objects.
    static func createStatements(for joinTable: JoinTableDescription) -> [String] {
        var columns = [
            "\"src\" int8 NOT NULL REFERENCES \(quoted(joinTable.sourceEntity))(\"_id\") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED",
            "\"dst\" int8 NOT NULL REFERENCES \(quoted(joinTable.destinationEntity))(\"_id\") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED",
        ]
        if let position = joinTable.sourcePositionColumn { columns.append("\(quoted(position)) int8") }
        if let position = joinTable.destinationPositionColumn { columns.append("\(quoted(position)) int8") }
        columns.append("PRIMARY KEY (\"src\", \"dst\")")
        return [
            "CREATE TABLE \(quoted(joinTable.name)) (\n  \(columns.joined(separator: ",\n  "))\n)",
            "CREATE INDEX IF NOT EXISTS \(quoted(identifier(joinTable.name + "_dst"))) ON \(quoted(joinTable.name)) (\"dst\", \"src\")",
        ]
    }

    /// The reference constraints of one entity's table.
    func constraintStatements(for entity: EntityDescription) -> [String] {
        (schema.foreignKeys[entity.name] ?? []).map(Self.constraintStatement)
            + entity.attributes.filter { $0.type == .binary }.flatMap { Self.blobReferenceStatements(entity: entity.name, column: $0.name) }
    }

    // MARK: - blobs (docs/architecture.md#shared-blobs)

    /// A binary column's constraint and index. The constraint is checked at once, not at COMMIT:
    /// the check takes a KEY SHARE lock on the blob row as the reference is written, which is what
    /// keeps a concurrent sweep from deleting that blob (see `sweepBlobs`).
    static func blobReferenceStatements(entity: String, column: String) -> [String] {
        [
            "ALTER TABLE \(quoted(entity)) ADD CONSTRAINT \(quoted(identifier("\(entity)_\(column)_blobref")))"
                + " FOREIGN KEY (\(quoted(column))) REFERENCES \(quoted(StoreSchema.blobTable)) (\"hash\")",
            "CREATE INDEX IF NOT EXISTS \(quoted(identifier(StoreSchema.blobIndexName(entity: entity, column: column)))) ON \(quoted(entity)) (\(quoted(column)))",
        ]
    }

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

    /// The whole schema, for a new store: tables first, then join tables, then the reference
    /// constraints between them (a table may name one created after it).
    func createStatements() -> [String] {
        Self.blobCreateStatements + model.entities.flatMap(createStatements(for:)) + schema.joinTables.flatMap(Self.createStatements(for:))
            + model.entities.flatMap(constraintStatements(for:))
    }

    // MARK: - bookkeeping tables

    static let metadataTable = StoreSchema.metadataTable
    static let idempotencyTable = "_cloner_idempotency"
    static let jobsTable = "_cloner_jobs"

    static let metadataCreateStatement =
        "CREATE TABLE \(quoted(metadataTable)) (key text COLLATE \"C\" PRIMARY KEY, value text NOT NULL)"

    /// The service's tables (SQLite's `ServiceTables`, in PostgreSQL types): idempotency answers
    /// and clone jobs, in the same database so an answer commits with the clone it describes.
    /// Columns and indexes `serviceCreateStatements` leave behind: when all are there, preparation
    /// runs none of its DDL (see `PostgreSQLStore.serviceTablesAreCurrent`).
    static let serviceColumns: [(table: String, column: String)] = [
        (idempotencyTable, "state"), (idempotencyTable, "owner"), (idempotencyTable, "lease_expires_at"),
        (jobsTable, "owner"), (jobsTable, "lease_expires_at"),
    ]
    static let serviceIndexes = [
        "\(idempotencyTable)_created", "\(jobsTable)_created", "\(jobsTable)_lease", "\(idempotencyTable)_lease",
    ]

    static let serviceCreateStatements = [
        """
        CREATE TABLE IF NOT EXISTS "\(idempotencyTable)" (
          key text COLLATE "C" PRIMARY KEY,
          fingerprint text NOT NULL,
          status int8 NOT NULL,
          location text,
          body bytea NOT NULL,
          created_at timestamptz NOT NULL,
          state text NOT NULL DEFAULT 'done',
          owner text,
          lease_expires_at timestamptz
        )
        """,
        "CREATE INDEX IF NOT EXISTS \"\(idempotencyTable)_created\" ON \"\(idempotencyTable)\" (created_at)",
        """
        CREATE TABLE IF NOT EXISTS "\(jobsTable)" (
          id text COLLATE "C" PRIMARY KEY,
          status text NOT NULL,
          request bytea NOT NULL,
          result bytea,
          error bytea,
          created_at timestamptz NOT NULL,
          finished_at timestamptz,
          owner text,
          lease_expires_at timestamptz
        )
        """,
        "CREATE INDEX IF NOT EXISTS \"\(jobsTable)_created\" ON \"\(jobsTable)\" (created_at)",
        // Replica leases (docs/architecture.md#replicas), added to databases an older version made: additive,
        // run under the preparation lock like the rest. Old rows read as finished answers.
        "ALTER TABLE \"\(idempotencyTable)\" ADD COLUMN IF NOT EXISTS state text NOT NULL DEFAULT 'done'",
        "ALTER TABLE \"\(idempotencyTable)\" ADD COLUMN IF NOT EXISTS owner text",
        "ALTER TABLE \"\(idempotencyTable)\" ADD COLUMN IF NOT EXISTS lease_expires_at timestamptz",
        "ALTER TABLE \"\(jobsTable)\" ADD COLUMN IF NOT EXISTS owner text",
        "ALTER TABLE \"\(jobsTable)\" ADD COLUMN IF NOT EXISTS lease_expires_at timestamptz",
        "CREATE INDEX IF NOT EXISTS \"\(jobsTable)_lease\" ON \"\(jobsTable)\" (lease_expires_at) WHERE status IN ('queued', 'running')",
        "CREATE INDEX IF NOT EXISTS \"\(idempotencyTable)_lease\" ON \"\(idempotencyTable)\" (lease_expires_at) WHERE state = 'in_progress'",
    ]
}
