import ClonerModel

/// Works out how to bring a store from the layout it records to the one a new model needs, once
/// for every backend: the decision (what is accepted, what is refused and why) and the steps,
/// spelled in the backend's `Dialect`. Only additive changes are applied (new entity, new optional
/// or defaulted attribute, new relationship, `originalName` renames, `unique` or `uniqueTogether`
/// added or dropped, required made optional); everything else is refused with the reason, because
/// a silent guess would lose data. Both backends therefore accept and refuse exactly the same model
/// changes with the same reasons, and the same change gives the same steps in the same order.
struct SchemaMigrator<Dialect: SQLDialect> {
    typealias Step = SchemaMigrationStep

    let old: SchemaSnapshot
    let new: DataModel

    func plan() throws(StoreError) -> [Step] {
        let oldModel = old.makeModel()
        let oldSchema = StoreSchema(model: oldModel)
        let newSchema = StoreSchema(model: new)
        var steps: [Step] = []
        // References a backend adds apart from their columns go last: a new column may name a
        // table created further on.
        var references: [Step] = []
        var refusals: [String] = []

        let newNames = Set(new.entities.map(\.name))
        for removed in oldModel.entities where !newNames.contains(removed.name) {
            refusals.append("entity \(removed.name) was removed; its table and rows would be lost")
        }

        for entity in new.entities {
            guard let oldEntity = oldModel.entity(named: entity.name) else {
                steps += Dialect.createStatements(for: entity, in: newSchema).map(Step.sql)
                references += Dialect.referenceStatements(for: entity, in: newSchema).map(Step.sql)
                continue
            }
            // A group whose attributes were renamed is dropped before the rename and created
            // again after it, so the index name always follows the current attribute names.
            let oldGroups = Set(oldEntity.uniqueTogether), newGroups = Set(entity.uniqueTogether)
            for group in oldEntity.uniqueTogether where !newGroups.contains(group) {
                steps.append(.sql(dropIndex(Dialect.uniqueTogetherIndexName(entity: entity.name, attributes: group))))
            }
            steps += attributeSteps(entity: entity, oldEntity: oldEntity, refusals: &refusals)
            for group in entity.uniqueTogether where !oldGroups.contains(group) {
                steps.append(.createUniqueTogetherIndex(entity: entity.name, attributes: group))
            }
            refusals += relationshipRefusals(entity: entity, oldEntity: oldEntity, oldSchema: oldSchema, newSchema: newSchema)

            let oldColumns = Set((oldSchema.foreignKeys[entity.name] ?? []).map(\.column))
            for foreignKey in newSchema.foreignKeys[entity.name] ?? [] where !oldColumns.contains(foreignKey.column) {
                if oldEntity.attribute(named: foreignKey.column) != nil { continue }  // reported as a removed attribute
                steps += Dialect.columnDefinitions(foreignKey).map { .sql(addColumn(entity.name, $0)) }
                steps += Dialect.indexStatements(foreignKey).map(Step.sql)
                if !Dialect.declaresReferences { references.append(.sql(Dialect.referenceStatement(foreignKey))) }
            }
        }

        let oldJoinTables = Set(oldSchema.joinTables.map(\.name))
        for joinTable in newSchema.joinTables where !oldJoinTables.contains(joinTable.name) {
            steps += Dialect.createStatements(for: joinTable).map(Step.sql)
        }

        guard refusals.isEmpty else { throw .migrationRefused(reasons: refusals) }
        return steps + references
    }

    /// A relationship may be added, never removed or changed: its links could not be carried over.
    private func relationshipRefusals(
        entity: EntityDescription, oldEntity: EntityDescription, oldSchema: StoreSchema, newSchema: StoreSchema
    ) -> [String] {
        var refusals: [String] = []
        for oldRelationship in oldEntity.relationships {
            guard let relationship = entity.relationship(named: oldRelationship.name) else {
                refusals.append("\(entity.name).\(oldRelationship.name): relationship was removed; its links would be lost")
                continue
            }
            if relationship.destination != oldRelationship.destination
                || oldSchema.storage(of: oldRelationship) != newSchema.storage(of: relationship)
            {
                refusals.append(
                    "\(entity.name).\(relationship.name): destination, cardinality, order or inverse changed; existing links cannot be converted safely")
            }
        }
        return refusals
    }

    private func attributeSteps(entity: EntityDescription, oldEntity: EntityDescription, refusals: inout [String]) -> [Step] {
        var steps: [Step] = []
        var matchedOld: Set<String> = []
        for attribute in entity.attributes {
            let previous =
                oldEntity.attribute(named: attribute.name)
                ?? attribute.originalName.flatMap { oldEntity.attribute(named: $0) }
            guard let previous else {
                if attribute.acceptsBlank {
                    steps += addedAttributeSteps(attribute, entity: entity.name)
                } else {
                    refusals.append("\(entity.name).\(attribute.name): a new required attribute needs a default for the rows that already exist")
                }
                continue
            }
            matchedOld.insert(previous.name)
            if previous.type != attribute.type {
                refusals.append(
                    "\(entity.name).\(attribute.name): type changed from \(previous.type.rawValue) to \(attribute.type.rawValue); stored values cannot be converted safely"
                )
                continue
            }
            steps += keptAttributeSteps(previous: previous, attribute: attribute, entity: entity.name)
        }
        for attribute in oldEntity.attributes where !matchedOld.contains(attribute.name) {
            refusals.append("\(entity.name).\(attribute.name): attribute was removed (or renamed without originalName); its values would be lost")
        }
        return steps
    }

    /// A new attribute the existing rows can do without (optional, or defaulted).
    private func addedAttributeSteps(_ attribute: AttributeDescription, entity: String) -> [Step] {
        var steps: [Step] = [.sql(addColumn(entity, Dialect.columnDefinition(attribute)))]
        if attribute.type == .binary {
            steps += Dialect.blobColumnStatements(entity: entity, column: attribute.name).map(Step.sql)
            // Existing rows take the default's key; its blob is stored before the steps run.
            if case .binary(let bytes)? = attribute.defaultValue {
                let key = Dialect.literal(.binary(BlobDigest.sha256(bytes)))
                steps.append(.sql("UPDATE \(quoted(entity)) SET \(quoted(attribute.name)) = \(key)"))
            }
        }
        if attribute.isUnique { steps.append(.createUniqueIndex(entity: entity, attribute: attribute.name)) }
        return steps
    }

    /// An attribute the new model keeps: a rename (its unique index dropped under the old name and
    /// made again), a unique flag that changed, a column that becomes required.
    private func keptAttributeSteps(previous: AttributeDescription, attribute: AttributeDescription, entity: String) -> [Step] {
        var steps: [Step] = []
        if previous.name != attribute.name {
            if previous.isUnique { steps.append(.sql(dropIndex(Dialect.uniqueIndexName(entity: entity, attribute: previous.name)))) }
            steps.append(.sql("ALTER TABLE \(quoted(entity)) RENAME COLUMN \(quoted(previous.name)) TO \(quoted(attribute.name))"))
            if attribute.isUnique { steps.append(.createUniqueIndex(entity: entity, attribute: attribute.name)) }
        } else if previous.isUnique != attribute.isUnique {
            steps.append(
                attribute.isUnique
                    ? .createUniqueIndex(entity: entity, attribute: attribute.name)
                    : .sql(dropIndex(Dialect.uniqueIndexName(entity: entity, attribute: attribute.name))))
        }
        if previous.isOptional && !attribute.isOptional {
            steps.append(.requireNoNulls(entity: entity, column: attribute.name))
        }
        return steps
    }

    private func addColumn(_ entity: String, _ definition: String) -> String {
        "ALTER TABLE \(quoted(entity)) ADD COLUMN \(definition)"
    }

    private func dropIndex(_ name: String) -> String { "DROP INDEX IF EXISTS \(quoted(name))" }
}
