import ClonerModel

/// Works out how to bring a store from the layout it records to the one a new model needs.
/// Only additive changes are applied (new entity, new optional or defaulted attribute, new
/// relationship, `originalName` renames, `unique` or `uniqueTogether` added or dropped, required
/// made optional);
/// everything else is refused with the reason, because a silent guess would lose data.
struct SchemaMigrator {
    enum Step: Equatable {
        case sql(String)
        /// Making an attribute required is safe only if no row lacks it.
        case requireNoNulls(entity: String, column: String)
        /// Adding a unique index fails if duplicates exist; say so instead of a raw SQLite error.
        case createUniqueIndex(entity: String, attribute: String)
        /// The same for a `uniqueTogether` group.
        case createUniqueTogetherIndex(entity: String, attributes: [String])
    }

    let old: SchemaSnapshot
    let new: DataModel

    func plan() throws(StoreError) -> [Step] {
        let oldModel = old.makeModel()
        let oldSchema = StoreSchema(model: oldModel)
        let newSchema = StoreSchema(model: new)
        var steps: [Step] = []
        var refusals: [String] = []

        let newNames = Set(new.entities.map(\.name))
        for removed in oldModel.entities where !newNames.contains(removed.name) {
            refusals.append("entity \(removed.name) was removed; its table and rows would be lost")
        }

        for entity in new.entities {
            guard let oldEntity = oldModel.entity(named: entity.name) else {
                steps += SQLiteDialect.createStatements(for: entity, in: newSchema).map(Step.sql)
                continue
            }
            // A group whose attributes were renamed is dropped before the rename and created
            // again after it, so the index name always follows the current attribute names.
            let oldGroups = Set(oldEntity.uniqueTogether), newGroups = Set(entity.uniqueTogether)
            for group in oldEntity.uniqueTogether where !newGroups.contains(group) {
                steps.append(.sql("DROP INDEX IF EXISTS \(quoted(SQLiteDialect.uniqueTogetherIndexName(entity: entity.name, attributes: group)))"))
            }
            steps += attributeSteps(entity: entity, oldEntity: oldEntity, refusals: &refusals)
            for group in entity.uniqueTogether where !oldGroups.contains(group) {
                steps.append(.createUniqueTogetherIndex(entity: entity.name, attributes: group))
            }

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

            let oldColumns = Set((oldSchema.foreignKeys[entity.name] ?? []).map(\.column))
            for foreignKey in newSchema.foreignKeys[entity.name] ?? [] where !oldColumns.contains(foreignKey.column) {
                if oldEntity.attribute(named: foreignKey.column) != nil { continue }  // reported as a removed attribute
                steps += SQLiteDialect.columnDefinitions(foreignKey).map { .sql("ALTER TABLE \(quoted(entity.name)) ADD COLUMN \($0)") }
                steps += SQLiteDialect.indexStatements(foreignKey).map(Step.sql)
            }
        }

        let oldJoinTables = Set(oldSchema.joinTables.map(\.name))
        for joinTable in newSchema.joinTables where !oldJoinTables.contains(joinTable.name) {
            steps += SQLiteDialect.createStatements(for: joinTable).map(Step.sql)
        }

        guard refusals.isEmpty else { throw .migrationRefused(reasons: refusals) }
        return steps
    }

    private func attributeSteps(entity: EntityDescription, oldEntity: EntityDescription, refusals: inout [String]) -> [Step] {
        var steps: [Step] = []
        var matchedOld: Set<String> = []
        let table = quoted(entity.name)
        for attribute in entity.attributes {
            let previous =
                oldEntity.attribute(named: attribute.name)
                ?? attribute.originalName.flatMap { oldEntity.attribute(named: $0) }
            guard let previous else {
                if attribute.acceptsBlank {
                    steps.append(.sql("ALTER TABLE \(table) ADD COLUMN \(SQLiteDialect.columnDefinition(attribute))"))
                    if attribute.type == .binary {
                        steps.append(.sql(SQLiteDialect.blobIndexStatement(entity: entity.name, column: attribute.name)))
                        // Existing rows take the default's key; its blob is stored before the steps run.
                        if case .binary(let bytes)? = attribute.defaultValue {
                            steps.append(.sql("UPDATE \(table) SET \(quoted(attribute.name)) = X'\(BlobDigest.sha256(bytes).lowercaseHex)'"))
                        }
                    }
                    if attribute.isUnique { steps.append(.createUniqueIndex(entity: entity.name, attribute: attribute.name)) }
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
            steps += Self.keptAttributeSteps(previous: previous, attribute: attribute, entity: entity.name, uniqueIndexName: SQLiteDialect.uniqueIndexName)
        }
        for attribute in oldEntity.attributes where !matchedOld.contains(attribute.name) {
            refusals.append("\(entity.name).\(attribute.name): attribute was removed (or renamed without originalName); its values would be lost")
        }
        return steps
    }
}

extension SchemaMigrator {
    /// The steps for an attribute the new model keeps, the same on every backend: a rename (its
    /// unique index dropped under the old name and made again), a unique flag that changed, a
    /// column that becomes required. `uniqueIndexName` is the backend's name for the index.
    static func keptAttributeSteps(
        previous: AttributeDescription, attribute: AttributeDescription, entity: String,
        uniqueIndexName: (_ entity: String, _ attribute: String) -> String
    ) -> [Step] {
        var steps: [Step] = []
        let table = quoted(entity)
        if previous.name != attribute.name {
            if previous.isUnique { steps.append(.sql("DROP INDEX IF EXISTS \(quoted(uniqueIndexName(entity, previous.name)))")) }
            steps.append(.sql("ALTER TABLE \(table) RENAME COLUMN \(quoted(previous.name)) TO \(quoted(attribute.name))"))
            if attribute.isUnique { steps.append(.createUniqueIndex(entity: entity, attribute: attribute.name)) }
        } else if previous.isUnique != attribute.isUnique {
            steps.append(
                attribute.isUnique
                    ? .createUniqueIndex(entity: entity, attribute: attribute.name)
                    : .sql("DROP INDEX IF EXISTS \(quoted(uniqueIndexName(entity, attribute.name)))"))
        }
        if previous.isOptional && !attribute.isOptional {
            steps.append(.requireNoNulls(entity: entity, column: attribute.name))
        }
        return steps
    }
}
