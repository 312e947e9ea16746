import ClonerModel

extension StoreSchema {
    /// Column definition of one attribute. Requiredness is enforced by the store's save path, not
    /// by NOT NULL: SQLite cannot relax a NOT NULL without rebuilding the table, and a model that
    /// makes an attribute optional must migrate in place.
    ///
    /// A binary column holds its blob's key and refers to the blob row (checked at once, not at
    /// COMMIT); it has no DEFAULT (the save path writes a default's key itself, and SQLite's
    /// ADD COLUMN allows a REFERENCES column only with a NULL default).
    static func columnDefinition(_ attribute: AttributeDescription) -> String {
        var definition = "\(quoted(attribute.name)) \(attribute.type.sqlType)"
        if attribute.type == .binary { return definition + " REFERENCES \(quoted(blobTable))(\"hash\")" }
        if let value = attribute.defaultValue, !value.isNull {
            definition += " DEFAULT \(value.sqlLiteral)"
        }
        return definition
    }

    /// Reference columns are checked at COMMIT (deferred): a clone inserts entity after entity,
    /// and cycles (a card's `next` pointing at another new card) cannot be ordered otherwise.
    static func columnDefinitions(_ foreignKey: ForeignKeyDescription) -> [String] {
        var columns = ["\(quoted(foreignKey.column)) INTEGER REFERENCES \(quoted(foreignKey.referencedEntity))(\"_id\") DEFERRABLE INITIALLY DEFERRED"]
        if let position = foreignKey.positionColumn { columns.append("\(quoted(position)) INTEGER") }
        return columns
    }

    static func indexStatements(_ foreignKey: ForeignKeyDescription) -> [String] {
        let name = quoted("\(foreignKey.entity)_\(foreignKey.column)_fk")
        let unique = foreignKey.isUnique ? "UNIQUE " : ""
        let columns = foreignKey.positionColumn.map { "\(quoted(foreignKey.column)), \(quoted($0))" } ?? quoted(foreignKey.column)
        return ["CREATE \(unique)INDEX IF NOT EXISTS \(name) ON \(quoted(foreignKey.entity))(\(foreignKey.isUnique ? quoted(foreignKey.column) : columns))"]
    }

    static func uniqueIndexName(entity: String, attribute: String) -> String { "\(entity)_\(attribute)_unique" }

    static func blobIndexStatement(entity: String, column: String) -> String {
        "CREATE INDEX IF NOT EXISTS \(quoted(blobIndexName(entity: entity, column: column))) ON \(quoted(entity))(\(quoted(column)))"
    }

    /// The blob rows and their chunks. Chunks go with their blob (ON DELETE CASCADE); a blob row
    /// is small, so it lives in a WITHOUT ROWID table keyed by its hash, while chunks stay in a
    /// rowid table, whose large rows SQLite stores best and `sqlite3_blob_open` can read.
    static let blobCreateStatements = [
        "CREATE TABLE IF NOT EXISTS \(quoted(blobTable)) (\"hash\" BLOB NOT NULL PRIMARY KEY, \"size\" INTEGER NOT NULL) WITHOUT ROWID",
        """
        CREATE TABLE IF NOT EXISTS \(quoted(blobChunkTable)) (\"hash\" BLOB NOT NULL REFERENCES \(quoted(blobTable))(\"hash\") ON DELETE CASCADE ON UPDATE CASCADE, \
        \"n\" INTEGER NOT NULL, \"bytes\" BLOB NOT NULL, UNIQUE (\"hash\", \"n\"))
        """,
    ]

    static func uniqueIndexStatement(entity: String, attribute: String) -> String {
        "CREATE UNIQUE INDEX IF NOT EXISTS \(quoted(uniqueIndexName(entity: entity, attribute: attribute))) ON \(quoted(entity))(\(quoted(attribute)))"
    }

    /// The index of one `uniqueTogether` group. Parentheses and commas cannot occur in model names,
    /// so this name never collides with a single attribute's `uniqueIndexName`.
    static func uniqueTogetherIndexName(entity: String, attributes: [String]) -> String {
        "\(entity)(\(attributes.joined(separator: ",")))_unique"
    }

    static func uniqueTogetherIndexStatement(entity: String, attributes: [String]) -> String {
        let columns = attributes.map(quoted).joined(separator: ", ")
        return "CREATE UNIQUE INDEX IF NOT EXISTS \(quoted(uniqueTogetherIndexName(entity: entity, attributes: attributes))) ON \(quoted(entity))(\(columns))"
    }

    /// CREATE TABLE and its indexes for one entity.
    func createStatements(for entity: EntityDescription) -> [String] {
        // Reference columns come before the attributes: SQLite reads a row's fields in order, and
        // a reference read by a walk or a join must not step over a large blob's overflow pages.
        var columns = ["\"_id\" INTEGER PRIMARY KEY AUTOINCREMENT", "\"_version\" INTEGER NOT NULL DEFAULT 1"]
        let references = foreignKeys[entity.name] ?? []
        columns += references.flatMap(StoreSchema.columnDefinitions)
        columns += entity.attributes.map(StoreSchema.columnDefinition)
        var statements = ["CREATE TABLE \(quoted(entity.name)) (\n  \(columns.joined(separator: ",\n  "))\n)"]
        statements += references.flatMap(StoreSchema.indexStatements)
        statements += entity.attributes.filter { $0.type == .binary }.map { StoreSchema.blobIndexStatement(entity: entity.name, column: $0.name) }
        statements += entity.attributes.filter(\.isUnique).map { StoreSchema.uniqueIndexStatement(entity: entity.name, attribute: $0.name) }
        statements += entity.uniqueTogether.map { StoreSchema.uniqueTogetherIndexStatement(entity: entity.name, attributes: $0) }
        return statements
    }

    /// Join rows vanish with either end (ON DELETE CASCADE): a pair cannot outlive its objects.
    static func createStatements(for joinTable: JoinTableDescription) -> [String] {
        var columns = [
            "\"src\" INTEGER NOT NULL REFERENCES \(quoted(joinTable.sourceEntity))(\"_id\") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED",
            "\"dst\" INTEGER NOT NULL REFERENCES \(quoted(joinTable.destinationEntity))(\"_id\") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED",
        ]
        if let position = joinTable.sourcePositionColumn { columns.append("\(quoted(position)) INTEGER") }
        if let position = joinTable.destinationPositionColumn { columns.append("\(quoted(position)) INTEGER") }
        columns.append("PRIMARY KEY (\"src\", \"dst\")")
        return [
            "CREATE TABLE \(quoted(joinTable.name)) (\n  \(columns.joined(separator: ",\n  "))\n) WITHOUT ROWID",
            "CREATE INDEX IF NOT EXISTS \(quoted(joinTable.name + "_dst")) ON \(quoted(joinTable.name))(\"dst\", \"src\")",
        ]
    }

    /// The whole schema, for a new store.
    func createStatements() -> [String] {
        StoreSchema.blobCreateStatements + model.entities.flatMap(createStatements(for:)) + joinTables.flatMap(StoreSchema.createStatements(for:))
    }
}
