import ClonerModel

/// The DDL written once over the dialect's schema spellings (`SQLDialect`, MARK schema): the
/// tables, columns and indexes a model needs, as `StoreSchema` lays it out, for a new store and
/// for the steps of a migration (`SchemaMigrator`).
extension SQLDialect {
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

    /// `name` is the index's name as kept (`identifier`). `sparse`: only the rows whose first
    /// column is not NULL are indexed (a partial index).
    static func indexStatement(named name: String, unique: Bool = false, on table: String, columns: [String], sparse: Bool = false) -> String {
        let list = columns.map(quoted).joined(separator: ", ")
        let rows = sparse ? " WHERE \(quoted(columns[0])) IS NOT NULL" : ""
        return "CREATE \(unique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(quoted(name)) ON \(quoted(table))\(indexColumnsLead)(\(list))\(rows)"
    }

    /// Every reference column is indexed: delete rules, inverse reads and the clone's joins go
    /// through it from the referenced side, always by a value, so the index may leave out the
    /// rows without one (`indexesOnlyRowsWithAValue`); a list filtered on the reference being
    /// `null` then reads the table instead.
    static func indexStatements(_ foreignKey: ForeignKeyDescription) -> [String] {
        let columns = [foreignKey.column] + (foreignKey.isUnique ? [] : foreignKey.positionColumn.map { [$0] } ?? [])
        return [
            indexStatement(
                named: foreignKeyIndexName(foreignKey), unique: foreignKey.isUnique, on: foreignKey.entity, columns: columns, sparse: indexesOnlyRowsWithAValue)
        ]
    }

    static func foreignKeyIndexName(_ foreignKey: ForeignKeyDescription) -> String {
        identifier("\(foreignKey.entity)_\(foreignKey.column)_fk")
    }

    static func uniqueIndexName(entity: String, attribute: String) -> String { identifier("\(entity)_\(attribute)_unique") }

    /// Parentheses and commas cannot occur in model names, so this name never collides with a
    /// single attribute's `uniqueIndexName`.
    static func uniqueTogetherIndexName(entity: String, attributes: [String]) -> String {
        identifier("\(entity)(\(attributes.joined(separator: ",")))_unique")
    }

    static func uniqueIndexStatement(entity: String, attribute: String) -> String {
        indexStatement(named: uniqueIndexName(entity: entity, attribute: attribute), unique: true, on: entity, columns: [attribute])
    }

    static func uniqueTogetherIndexStatement(entity: String, attributes: [String]) -> String {
        indexStatement(named: uniqueTogetherIndexName(entity: entity, attributes: attributes), unique: true, on: entity, columns: attributes)
    }

    /// Found by a key only (the sweep's and a blob's deletion's lookups), as a reference column's.
    static func blobIndexStatement(entity: String, column: String) -> String {
        indexStatement(
            named: identifier(StoreSchema.blobIndexName(entity: entity, column: column)), on: entity, columns: [column], sparse: indexesOnlyRowsWithAValue)
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
            "CREATE TABLE \(quoted(joinTable.name)) (\n  \(columns.joined(separator: ",\n  "))\n)\(keyedTableOptions)",
            indexStatement(named: identifier(joinTable.name + "_dst"), on: joinTable.name, columns: ["dst", "src"]),
        ]
    }

    /// The whole schema, for a new store: the blob tables, then every entity's table, then the
    /// join tables, then the references declared apart (a table may name one created after it).
    static func createStatements(for schema: StoreSchema) -> [String] {
        blobTableStatements + schema.model.entities.flatMap { createStatements(for: $0, in: schema) }
            + schema.joinTables.flatMap(createStatements(for:))
            + schema.model.entities.flatMap { referenceStatements(for: $0, in: schema) }
    }

    /// The references of one entity's table a backend that does not declare them with their
    /// columns adds once every table exists; none where they are declared.
    static func referenceStatements(for entity: EntityDescription, in schema: StoreSchema) -> [String] {
        guard !declaresReferences else { return [] }
        return (schema.foreignKeys[entity.name] ?? []).map(referenceStatement)
            + entity.attributes.filter { $0.type == .binary }.flatMap { blobColumnStatements(entity: entity.name, column: $0.name) }
    }

    /// A reference column's constraint, added after its table. Checked at COMMIT (deferred), as
    /// a declared reference is.
    static func referenceStatement(_ foreignKey: ForeignKeyDescription) -> String {
        "ALTER TABLE \(quoted(foreignKey.entity)) ADD CONSTRAINT \(quoted(identifier(referenceConstraintName(entity: foreignKey.entity, column: foreignKey.column))))"
            + " FOREIGN KEY (\(quoted(foreignKey.column))) REFERENCES \(quoted(foreignKey.referencedEntity))(\"_id\") DEFERRABLE INITIALLY DEFERRED"
    }

    /// The names of the constraints `referenceStatement` and `blobColumnStatements` add, before
    /// `identifier`.
    static func referenceConstraintName(entity: String, column: String) -> String { "\(entity)_\(column)_ref" }

    static func blobReferenceConstraintName(entity: String, column: String) -> String { "\(entity)_\(column)_blobref" }

    /// Renames a constraint `referenceStatement` or `blobColumnStatements` added (`name` as made
    /// up, before `identifier`) after its table, column or attribute was renamed; none where
    /// references are declared with their columns, which gives them no name.
    static func renameConstraintStatements(on table: String, from name: String, to newName: String) -> [String] {
        guard !declaresReferences, name != newName else { return [] }
        return ["ALTER TABLE \(quoted(table)) RENAME CONSTRAINT \(quoted(identifier(name))) TO \(quoted(identifier(newName)))"]
    }

    /// What a binary column needs beside its table: its index and, where references are not
    /// declared with their columns, its constraint. The constraint is checked at once, not at
    /// COMMIT: on PostgreSQL the check takes a KEY SHARE lock on the blob row as the reference is
    /// written, which is what keeps a concurrent sweep from deleting that blob.
    static func blobColumnStatements(entity: String, column: String) -> [String] {
        let constraint =
            "ALTER TABLE \(quoted(entity)) ADD CONSTRAINT \(quoted(identifier(blobReferenceConstraintName(entity: entity, column: column))))"
            + " FOREIGN KEY (\(quoted(column))) REFERENCES \(quoted(StoreSchema.blobTable)) (\"hash\")"
        return (declaresReferences ? [] : [constraint]) + [blobIndexStatement(entity: entity, column: column)]
    }
}
