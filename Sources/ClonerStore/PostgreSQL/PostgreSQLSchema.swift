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

    // MARK: - bookkeeping tables

    static let idempotencyTable = "_cloner_idempotency"
    static let jobsTable = "_cloner_jobs"
    static let jobCancellationsTable = "_cloner_job_cancellations"
    static let lineageTable = "_cloner_lineage"

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
        "\(jobsTable)_status_created", "\(jobCancellationsTable)_pkey", "\(lineageTable)_pkey", "\(lineageTable)_source",
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
        // `GET /jobs?status=`: one page is one range of this index, newest first.
        "CREATE INDEX IF NOT EXISTS \"\(jobsTable)_status_created\" ON \"\(jobsTable)\" (status, created_at, id)",
        "CREATE TABLE IF NOT EXISTS \"\(jobCancellationsTable)\" (id text COLLATE \"C\" PRIMARY KEY, requested_at timestamptz NOT NULL)",
        // Where clones came from (docs/architecture.md#lineage), as on SQLite.
        """
        CREATE TABLE IF NOT EXISTS "\(lineageTable)" (
          entity text COLLATE "C" NOT NULL,
          clone_id int8 NOT NULL,
          source_id int8 NOT NULL,
          created_at timestamptz NOT NULL,
          PRIMARY KEY (entity, clone_id)
        )
        """,
        "CREATE INDEX IF NOT EXISTS \"\(lineageTable)_source\" ON \"\(lineageTable)\" (entity, source_id, created_at, clone_id)",
    ]
}
