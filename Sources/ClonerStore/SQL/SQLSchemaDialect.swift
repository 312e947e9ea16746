import ClonerModel

/// What the DDL written once (entity tables, reference and position columns, indexes, join
/// tables) leaves to each backend: its types and literals, how a table numbers its rows, whether
/// references are declared with their columns, and how a name the store makes up is kept within
/// the backend's identifier limit. Each backend's text is the one its stores were created with,
/// to the byte; `SchemaDDLTextTests` holds it.
///
/// Requiredness is the save path's job, not NOT NULL's, on both: a model that makes an attribute
/// optional must migrate in place (SQLite cannot relax a NOT NULL without rebuilding the table).
protocol SQLSchemaDialect: SQLDialect {
    /// The type of ids, versions, references and positions.
    static var integerType: String { get }
    static func columnType(_ type: AttributeType) -> String
    /// `value` as a constant for a DEFAULT clause, as the backend reads it back for rows that
    /// existed before the column was added.
    static func literal(_ value: AttributeValue) -> String
    /// The `_id` column: numbered by the table, a number never reused.
    static var idColumn: String { get }
    /// Whether reference columns (to rows and to blobs) declare their REFERENCES clause, and a
    /// binary column's index is made with its table. Otherwise both are added once every table
    /// exists, by the backend's own constraint statements.
    static var declaresReferences: Bool { get }
    /// A name the store makes up for an index, as the backend keeps it.
    static func indexName(_ name: String) -> String
    /// What comes between an index's table and its column list.
    static var indexColumnsLead: String { get }
    /// What follows a join table's column list.
    static var joinTableOptions: String { get }
}

extension SQLSchemaDialect {
    /// A binary column holds its blob's key, checked at once (not at COMMIT), and has no DEFAULT:
    /// the save path writes a default's key itself (and SQLite's ADD COLUMN allows a REFERENCES
    /// column only with a NULL default).
    static func columnDefinition(_ attribute: AttributeDescription) -> String {
        let definition = "\(quoted(attribute.name)) \(columnType(attribute.type))"
        if attribute.type == .binary {
            return declaresReferences ? definition + " REFERENCES \(quoted(StoreSchema.blobTable))(\"hash\")" : definition
        }
        guard let value = attribute.defaultValue, !value.isNull else { return definition }
        return definition + " DEFAULT \(literal(value))"
    }

    /// A reference column and its position column. References are checked at COMMIT (deferred):
    /// a graph is inserted entity after entity, and cycles (a card's `next` pointing at another
    /// new card) cannot be ordered otherwise.
    static func columnDefinitions(_ foreignKey: ForeignKeyDescription) -> [String] {
        let reference =
            declaresReferences ? " REFERENCES \(quoted(foreignKey.referencedEntity))(\"_id\") DEFERRABLE INITIALLY DEFERRED" : ""
        var columns = ["\(quoted(foreignKey.column)) \(integerType)\(reference)"]
        if let position = foreignKey.positionColumn { columns.append("\(quoted(position)) \(integerType)") }
        return columns
    }

    /// `name` is the index's name as kept (`indexName`).
    static func indexStatement(named name: String, unique: Bool = false, on table: String, columns: [String]) -> String {
        let list = columns.map(quoted).joined(separator: ", ")
        return "CREATE \(unique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(quoted(name)) ON \(quoted(table))\(indexColumnsLead)(\(list))"
    }

    /// Every reference column is indexed: delete rules, inverse reads and the clone's joins go
    /// through it from the referenced side.
    static func indexStatements(_ foreignKey: ForeignKeyDescription) -> [String] {
        let columns = [foreignKey.column] + (foreignKey.isUnique ? [] : foreignKey.positionColumn.map { [$0] } ?? [])
        let name = indexName("\(foreignKey.entity)_\(foreignKey.column)_fk")
        return [indexStatement(named: name, unique: foreignKey.isUnique, on: foreignKey.entity, columns: columns)]
    }

    static func uniqueIndexName(entity: String, attribute: String) -> String { indexName("\(entity)_\(attribute)_unique") }

    /// Parentheses and commas cannot occur in model names, so this name never collides with a
    /// single attribute's `uniqueIndexName`.
    static func uniqueTogetherIndexName(entity: String, attributes: [String]) -> String {
        indexName("\(entity)(\(attributes.joined(separator: ",")))_unique")
    }

    static func uniqueIndexStatement(entity: String, attribute: String) -> String {
        indexStatement(named: uniqueIndexName(entity: entity, attribute: attribute), unique: true, on: entity, columns: [attribute])
    }

    static func uniqueTogetherIndexStatement(entity: String, attributes: [String]) -> String {
        indexStatement(named: uniqueTogetherIndexName(entity: entity, attributes: attributes), unique: true, on: entity, columns: attributes)
    }

    static func blobIndexStatement(entity: String, column: String) -> String {
        indexStatement(named: indexName(StoreSchema.blobIndexName(entity: entity, column: column)), on: entity, columns: [column])
    }

    /// CREATE TABLE and its indexes for one entity.
    static func createStatements(for entity: EntityDescription, in schema: StoreSchema) -> [String] {
        // Reference columns come before the attributes: SQLite reads a row's fields in order, and
        // a reference read by a walk or a join must not step over a large blob's overflow pages.
        var columns = [idColumn, "\"_version\" \(integerType) NOT NULL DEFAULT 1"]
        let references = schema.foreignKeys[entity.name] ?? []
        columns += references.flatMap(columnDefinitions)
        columns += entity.attributes.map(columnDefinition)
        var statements = ["CREATE TABLE \(quoted(entity.name)) (\n  \(columns.joined(separator: ",\n  "))\n)"]
        statements += references.flatMap(indexStatements)
        if declaresReferences {
            statements += entity.attributes.filter { $0.type == .binary }.map { blobIndexStatement(entity: entity.name, column: $0.name) }
        }
        statements += entity.attributes.filter(\.isUnique).map { uniqueIndexStatement(entity: entity.name, attribute: $0.name) }
        statements += entity.uniqueTogether.map { uniqueTogetherIndexStatement(entity: entity.name, attributes: $0) }
        return statements
    }

    /// Join rows vanish with either end (ON DELETE CASCADE): a pair cannot outlive its objects.
    static func createStatements(for joinTable: JoinTableDescription) -> [String] {
        var columns = [
            "\"src\" \(integerType) NOT NULL REFERENCES \(quoted(joinTable.sourceEntity))(\"_id\") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED",
            "\"dst\" \(integerType) NOT NULL REFERENCES \(quoted(joinTable.destinationEntity))(\"_id\") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED",
        ]
        if let position = joinTable.sourcePositionColumn { columns.append("\(quoted(position)) \(integerType)") }
        if let position = joinTable.destinationPositionColumn { columns.append("\(quoted(position)) \(integerType)") }
        columns.append("PRIMARY KEY (\"src\", \"dst\")")
        return [
            "CREATE TABLE \(quoted(joinTable.name)) (\n  \(columns.joined(separator: ",\n  "))\n)\(joinTableOptions)",
            indexStatement(named: indexName(joinTable.name + "_dst"), on: joinTable.name, columns: ["dst", "src"]),
        ]
    }
}
