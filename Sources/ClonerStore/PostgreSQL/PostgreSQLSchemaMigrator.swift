import ClonerModel

/// The steps that bring a PostgreSQL store from the layout its metadata records to the one a new
/// model needs.
///
/// What may change is decided by `SchemaMigrator`, the SQLite store's planner: `plan()` runs it
/// first and lets its refusal through unchanged, so both backends accept and refuse exactly the
/// same model changes with the same reasons. Only then are the accepted changes rendered in
/// PostgreSQL's DDL, walking the model in the same order as `SchemaMigrator` so the same change
/// gives the same steps.
struct PostgreSQLSchemaMigrator {
    let old: SchemaSnapshot
    let new: DataModel

    func plan() throws(StoreError) -> [SchemaMigrator.Step] {
        // The decision: throws `.migrationRefused` with every reason, exactly as on SQLite.
        _ = try SchemaMigrator(old: old, new: new).plan()

        let oldModel = old.makeModel()
        let oldSchema = StoreSchema(model: oldModel)
        let newSchema = StoreSchema(model: new)
        let layout = PostgreSQLSchema(schema: newSchema)
        var steps: [SchemaMigrator.Step] = []
        // Reference constraints go last: a new column may name a table created further on.
        var constraints: [SchemaMigrator.Step] = []

        for entity in new.entities {
            guard let oldEntity = oldModel.entity(named: entity.name) else {
                steps += PostgreSQLDialect.createStatements(for: entity, in: newSchema).map(SchemaMigrator.Step.sql)
                constraints += layout.constraintStatements(for: entity).map(SchemaMigrator.Step.sql)
                continue
            }
            let oldGroups = Set(oldEntity.uniqueTogether), newGroups = Set(entity.uniqueTogether)
            for group in oldEntity.uniqueTogether where !newGroups.contains(group) {
                steps.append(.sql("DROP INDEX IF EXISTS \(quoted(PostgreSQLDialect.uniqueTogetherIndexName(entity: entity.name, attributes: group)))"))
            }
            steps += attributeSteps(entity: entity, oldEntity: oldEntity)
            for group in entity.uniqueTogether where !oldGroups.contains(group) {
                steps.append(.createUniqueTogetherIndex(entity: entity.name, attributes: group))
            }
            let oldColumns = Set((oldSchema.foreignKeys[entity.name] ?? []).map(\.column))
            for foreignKey in newSchema.foreignKeys[entity.name] ?? [] where !oldColumns.contains(foreignKey.column) {
                if oldEntity.attribute(named: foreignKey.column) != nil { continue }
                steps += PostgreSQLDialect.columnDefinitions(foreignKey).map { .sql("ALTER TABLE \(quoted(entity.name)) ADD COLUMN \($0)") }
                steps += PostgreSQLDialect.indexStatements(foreignKey).map(SchemaMigrator.Step.sql)
                constraints.append(.sql(PostgreSQLSchema.constraintStatement(foreignKey)))
            }
        }

        let oldJoinTables = Set(oldSchema.joinTables.map(\.name))
        for joinTable in newSchema.joinTables where !oldJoinTables.contains(joinTable.name) {
            steps += PostgreSQLDialect.createStatements(for: joinTable).map(SchemaMigrator.Step.sql)
        }
        return steps + constraints
    }

    private func attributeSteps(entity: EntityDescription, oldEntity: EntityDescription) -> [SchemaMigrator.Step] {
        var steps: [SchemaMigrator.Step] = []
        let table = quoted(entity.name)
        for attribute in entity.attributes {
            guard
                let previous = oldEntity.attribute(named: attribute.name)
                    ?? attribute.originalName.flatMap({ oldEntity.attribute(named: $0) })
            else {
                // New: `SchemaMigrator` accepted it, so it is optional or has a default.
                steps.append(.sql("ALTER TABLE \(table) ADD COLUMN \(PostgreSQLDialect.columnDefinition(attribute))"))
                if attribute.type == .binary {
                    steps += PostgreSQLSchema.blobReferenceStatements(entity: entity.name, column: attribute.name).map(SchemaMigrator.Step.sql)
                    // Existing rows take the default's key; its blob is stored before the steps run.
                    if case .binary(let bytes)? = attribute.defaultValue {
                        steps.append(.sql("UPDATE \(table) SET \(quoted(attribute.name)) = \(PostgreSQLDialect.literal(.binary(BlobDigest.sha256(bytes))))"))
                    }
                }
                if attribute.isUnique { steps.append(.createUniqueIndex(entity: entity.name, attribute: attribute.name)) }
                continue
            }
            steps += SchemaMigrator.keptAttributeSteps(
                previous: previous, attribute: attribute, entity: entity.name, uniqueIndexName: PostgreSQLDialect.uniqueIndexName)
        }
        return steps
    }
}
