import ClonerModel

extension SchemaMigrator {
    /// The change to one entity both models have: its attributes, its unique groups and its
    /// relationships, kept, added, renamed or removed.
    struct KeptEntity {
        let entity: EntityDescription
        let old: EntityDescription
        let oldSchema: StoreSchema
        let newSchema: StoreSchema
        /// Renamed relationships whose shape changed too, refused already (`SchemaRenames`).
        let refusedRenames: Set<String>

        func plan(into plan: inout SchemaMigrationPlan, references: inout [Step]) {
            let name = entity.name
            // A group whose attributes were renamed is dropped before the rename and created
            // again after it, so the index name always follows the current attribute names.
            let oldGroups = Set(old.uniqueTogether), newGroups = Set(entity.uniqueTogether)
            for group in old.uniqueTogether where !newGroups.contains(group) {
                plan.steps.append(.sql(dropIndex(Dialect.uniqueTogetherIndexName(entity: name, attributes: group))))
            }
            // Removed columns go before any is added or renamed: a new one may take a removed name.
            removeReferenceColumns(into: &plan)
            reshapeKeptReferenceColumns(into: &plan)
            removeAttributes(into: &plan)
            plan.steps += attributeSteps(refusals: &plan.refusals)
            for group in entity.uniqueTogether where !oldGroups.contains(group) {
                plan.steps.append(.createUniqueTogetherIndex(entity: name, attributes: group))
            }
            plan.refusals += relationshipRefusals()

            let oldColumns = Set((oldSchema.foreignKeys[name] ?? []).map(\.column))
            for foreignKey in newSchema.foreignKeys[name] ?? [] where !oldColumns.contains(foreignKey.column) {
                plan.steps += Dialect.columnDefinitions(foreignKey).map { .sql(addColumn($0)) }
                plan.steps += Dialect.indexStatements(foreignKey).map(Step.sql)
                if !Dialect.declaresReferences { references.append(.sql(Dialect.referenceStatement(foreignKey))) }
            }
        }

        // MARK: - removals

        /// The reference columns of removed relationships, with their index first: SQLite cannot
        /// drop an indexed column (PostgreSQL drops the index and the constraint with it).
        private func removeReferenceColumns(into plan: inout SchemaMigrationPlan) {
            let newColumns = Set((newSchema.foreignKeys[entity.name] ?? []).map(\.column))
            for foreignKey in oldSchema.foreignKeys[entity.name] ?? [] where !newColumns.contains(foreignKey.column) {
                // A kept relationship stored elsewhere now is refused as changed.
                guard let relationship = foreignKey.relationship, entity.relationship(named: relationship) == nil else { continue }
                plan.removals.append(.referenceColumn(entity: entity.name, relationship: relationship, column: foreignKey.column))
                plan.steps.append(.sql(dropIndex(Dialect.foreignKeyIndexName(foreignKey))))
                let columns = [foreignKey.column] + (foreignKey.positionColumn.map { [$0] } ?? [])
                plan.steps += columns.map { .sql(dropColumn($0)) }
            }
        }

        /// A kept reference column whose other side was removed or added keeps its links, but
        /// not its layout: a removed ordered to-many's position column is dropped once it holds
        /// no order, and a removed one-to-one side takes the uniqueness off the index; a new
        /// ordered to-many gets a position column, its existing links numbered in `_id` order.
        /// A to-one made one-to-one by a new inverse keeps its index as it was.
        private func reshapeKeptReferenceColumns(into plan: inout SchemaMigrationPlan) {
            let newForeignKeys = Dictionary(uniqueKeysWithValues: (newSchema.foreignKeys[entity.name] ?? []).map { ($0.column, $0) })
            for before in oldSchema.foreignKeys[entity.name] ?? [] {
                guard let after = newForeignKeys[before.column], !after.isUnique,
                    before.isUnique != after.isUnique || before.positionColumn != after.positionColumn
                else { continue }
                let removedInverse = before.inverseRelationship.flatMap { inverse in
                    newSchema.model.entity(named: before.referencedEntity)?.relationship(named: inverse) == nil ? inverse : nil
                }
                // An inverse kept but changed is refused on its own side.
                guard removedInverse != nil || before.positionColumn == nil else { continue }
                plan.steps.append(.sql(dropIndex(Dialect.foreignKeyIndexName(before))))
                if let position = before.positionColumn, let inverse = removedInverse {
                    plan.removals.append(.order(entity: before.referencedEntity, relationship: inverse, table: entity.name, column: position))
                    plan.steps.append(.sql(dropColumn(position)))
                } else if let position = after.positionColumn {
                    plan.steps += Dialect.columnDefinitions(after).dropFirst().map { .sql(addColumn($0)) }
                    plan.steps.append(.sql(numberLinks(after, into: position)))
                }
                plan.steps += Dialect.indexStatements(after).map(Step.sql)
            }
        }

        /// The columns of removed attributes, each after its unique or blob index.
        private func removeAttributes(into plan: inout SchemaMigrationPlan) {
            let kept = Set(entity.attributes.compactMap { previous(of: $0)?.name })
            for attribute in old.attributes where !kept.contains(attribute.name) {
                plan.removals.append(.attribute(entity: entity.name, attribute: attribute.name))
                if attribute.isUnique {
                    plan.steps.append(.sql(dropIndex(Dialect.uniqueIndexName(entity: entity.name, attribute: attribute.name))))
                }
                if attribute.type == .binary {
                    let index = Dialect.identifier(StoreSchema.blobIndexName(entity: entity.name, column: attribute.name))
                    plan.steps.append(.sql(dropIndex(index)))
                }
                plan.steps.append(.sql(dropColumn(attribute.name)))
            }
        }

        // MARK: - relationships

        /// A relationship may be added or removed, never changed: its links could not be carried
        /// over. A removed one's storage is dropped once found empty (`SchemaRemoval`), or kept
        /// for its inverse when that stays.
        private func relationshipRefusals() -> [String] {
            var refusals: [String] = []
            for oldRelationship in old.relationships {
                guard let relationship = entity.relationship(named: oldRelationship.name),
                    !refusedRenames.contains(relationship.qualifiedName)
                else { continue }
                if relationship.destination != oldRelationship.destination
                    || oldSchema.storage(of: oldRelationship) != newSchema.storage(of: relationship)
                {
                    refusals.append(
                        "\(entity.name).\(relationship.name): destination, cardinality, order or inverse changed; existing links cannot be converted safely")
                }
            }
            return refusals
        }

        // MARK: - attributes

        private func previous(of attribute: AttributeDescription) -> AttributeDescription? {
            old.attribute(named: attribute.name) ?? attribute.originalName.flatMap { old.attribute(named: $0) }
        }

        private func attributeSteps(refusals: inout [String]) -> [Step] {
            var steps: [Step] = []
            for attribute in entity.attributes {
                guard let previous = previous(of: attribute) else {
                    if attribute.acceptsBlank {
                        steps += addedAttributeSteps(attribute)
                    } else {
                        refusals.append("\(entity.name).\(attribute.name): a new required attribute needs a default for the rows that already exist")
                    }
                    continue
                }
                if previous.type != attribute.type {
                    refusals.append(
                        "\(entity.name).\(attribute.name): type changed from \(previous.type.rawValue) to \(attribute.type.rawValue); stored values cannot be converted safely"
                    )
                    continue
                }
                steps += keptAttributeSteps(previous: previous, attribute: attribute)
            }
            return steps
        }

        /// A new attribute the existing rows can do without (optional, or defaulted).
        private func addedAttributeSteps(_ attribute: AttributeDescription) -> [Step] {
            let entity = entity.name
            var steps: [Step] = [.sql(addColumn(Dialect.columnDefinition(attribute)))]
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

        /// An attribute the new model keeps: a rename (its unique index dropped under the old name
        /// and made again, a binary column's index and constraint renamed with it), a unique flag
        /// that changed, a column that becomes required.
        private func keptAttributeSteps(previous: AttributeDescription, attribute: AttributeDescription) -> [Step] {
            let entity = entity.name
            var steps: [Step] = []
            if previous.name != attribute.name {
                if previous.isUnique { steps.append(.sql(dropIndex(Dialect.uniqueIndexName(entity: entity, attribute: previous.name)))) }
                steps.append(.sql("ALTER TABLE \(quoted(entity)) RENAME COLUMN \(quoted(previous.name)) TO \(quoted(attribute.name))"))
                if attribute.isUnique { steps.append(.createUniqueIndex(entity: entity, attribute: attribute.name)) }
                if attribute.type == .binary { steps += renamedBlobColumnSteps(from: previous.name, to: attribute.name) }
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

        /// A binary column's index and constraint are named after it: they follow its rename, so
        /// that a later removal drops the index (SQLite cannot drop an indexed column) and a new
        /// attribute of the old name gets its own.
        private func renamedBlobColumnSteps(from column: String, to newColumn: String) -> [Step] {
            let entity = entity.name
            return Dialect.renameIndex(
                Dialect.identifier(StoreSchema.blobIndexName(entity: entity, column: column)),
                to: Dialect.identifier(StoreSchema.blobIndexName(entity: entity, column: newColumn)),
                creating: Dialect.blobIndexStatement(entity: entity, column: newColumn)
            ).map(Step.sql)
                + Dialect.renameConstraintStatements(
                    on: entity, from: Dialect.blobReferenceConstraintName(entity: entity, column: column),
                    to: Dialect.blobReferenceConstraintName(entity: entity, column: newColumn)
                ).map(Step.sql)
        }

        // MARK: - spellings

        private func addColumn(_ definition: String) -> String { "ALTER TABLE \(quoted(entity.name)) ADD COLUMN \(definition)" }

        private func dropColumn(_ column: String) -> String { "ALTER TABLE \(quoted(entity.name)) DROP COLUMN \(quoted(column))" }

        private func dropIndex(_ name: String) -> String { "DROP INDEX IF EXISTS \(quoted(name))" }

        /// Positions for the links a new ordered to-many finds, as if each had been appended in
        /// turn: 0, 1, 2… per destination, in `_id` order. A part of an ordered to-many declared
        /// into a hierarchy numbers its rows among the rows of every part whose table already held
        /// the reference (`siblingLinks`), so the parts keep one order, in `_id` order over all.
        private func numberLinks(_ foreignKey: ForeignKeyDescription, into position: String) -> String {
            let table = quoted(entity.name), column = quoted(foreignKey.column)
            let siblings = siblingLinks(of: foreignKey)
            guard !siblings.isEmpty else {
                return
                    "UPDATE \(table) SET \(quoted(position)) = numbered.position FROM (SELECT \"_id\", row_number() OVER (PARTITION BY \(column) ORDER BY \"_id\") - 1 AS position"
                    + " FROM \(table) WHERE \(column) IS NOT NULL) AS numbered WHERE \(table).\"_id\" = numbered.\"_id\""
            }
            let links = ([(entity.name, foreignKey.column)] + siblings).map { table, column in
                "SELECT \"_id\", \(quoted(column)) AS o FROM \(quoted(table)) WHERE \(quoted(column)) IS NOT NULL"
            }
            return
                "UPDATE \(table) SET \(quoted(position)) = numbered.position FROM (SELECT \"_id\", row_number() OVER (PARTITION BY o ORDER BY \"_id\") - 1 AS position"
                + " FROM (\(links.joined(separator: " UNION ALL "))) AS l) AS numbered WHERE \(table).\"_id\" = numbered.\"_id\""
        }

        /// For a reference column that a part of an ordered to-many declared into a hierarchy
        /// lists (`Post.blog` for `Blog.posts__Post`), the other parts' tables and reference
        /// columns that the store held before this migration (a table or column it adds has no
        /// links yet); empty for any other column.
        private func siblingLinks(of foreignKey: ForeignKeyDescription) -> [(table: String, column: String)] {
            let model = newSchema.model
            guard let inverse = foreignKey.inverseRelationship.flatMap({ model.entity(named: foreignKey.referencedEntity)?.relationship(named: $0) }),
                inverse.isHierarchyPart, inverse.isOrdered, let owners = model.entity(named: inverse.source)
            else { return [] }
            return owners.relationshipParts(ofField: inverse.fieldName).compactMap { part in
                guard part.destination != entity.name, case .foreignKeyOnDestination(let column, _) = newSchema.storage(of: part),
                    (oldSchema.foreignKeys[part.destination] ?? []).contains(where: {
                        $0.column == column && $0.referencedEntity == foreignKey.referencedEntity
                    })
                else { return nil }
                return (part.destination, column)
            }
        }
    }
}
