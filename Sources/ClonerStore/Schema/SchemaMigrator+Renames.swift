import ClonerModel

extension SchemaMigrator {
    /// The steps that give renamed entities and relationships (`SchemaRenames`) their new names in
    /// the store, so that it is laid out as the renamed snapshot says before anything else runs:
    /// `before` is the layout the store has, `after` the same model under the new names.
    ///
    /// Everything the store names after an entity or a relationship follows: tables, reference and
    /// position columns, join tables, the indexes and (where references are constraints added
    /// apart) the constraints named after them, and the clone lineage rows. The tables' own
    /// numbering follows by itself (SQLite's `sqlite_sequence` row is renamed with its table;
    /// PostgreSQL's identity sequence is found through its table), and so do the references other
    /// tables hold (SQLite rewrites them with the table; PostgreSQL's name the table, not its name).
    /// A one-to-one or many-to-many is stored on the side whose qualified name sorts first, so a
    /// rename may move it to the other side: the links are carried over.
    struct RenamedStorage {
        let renames: SchemaRenames
        let before: StoreSchema
        let after: StoreSchema

        func steps() -> [Step] {
            var steps: [Step] = []
            for entity in before.model.entities where renames.entityName(entity.name) != entity.name {
                steps.append(.sql("ALTER TABLE \(quoted(entity.name)) RENAME TO \(quoted(renames.entityName(entity.name)))"))
            }
            for entity in before.model.entities {
                for foreignKey in before.foreignKeys[entity.name] ?? [] { steps += referenceColumnSteps(foreignKey) }
                steps += attributeIndexSteps(entity)
            }
            for joinTable in before.joinTables { steps += joinTableSteps(joinTable) }
            for entity in before.model.entities where renames.entityName(entity.name) != entity.name {
                steps.append(.renameLineage(entity: entity.name, to: renames.entityName(entity.name)))
            }
            return steps
        }

        // MARK: - reference columns

        /// The relationship `relationship` of `entity` (old names) is, under the new names.
        private func renamed(_ relationship: String, of entity: String) -> RelationshipDescription? {
            after.model.entity(named: renames.entityName(entity))?.relationship(named: renames.relationshipName(relationship, of: entity))
        }

        /// A reference column renamed with its relationship (its position column, index and
        /// constraint with it), or moved to the other side of a one-to-one.
        private func referenceColumnSteps(_ foreignKey: ForeignKeyDescription) -> [Step] {
            guard let name = foreignKey.relationship, let relationship = renamed(name, of: foreignKey.entity) else { return [] }
            let table = renames.entityName(foreignKey.entity)
            switch after.storage(of: relationship) {
            case .foreignKeyOnSource(let column):
                guard let now = after.foreignKeys[table]?.first(where: { $0.column == column }) else { return [] }
                var steps: [Step] = []
                if foreignKey.column != now.column {
                    steps.append(.sql(renameColumn(foreignKey.column, to: now.column, of: table)))
                }
                if let position = foreignKey.positionColumn, let newPosition = now.positionColumn, position != newPosition {
                    steps.append(.sql(renameColumn(position, to: newPosition, of: table)))
                }
                let index = Dialect.foreignKeyIndexName(foreignKey), newIndex = Dialect.foreignKeyIndexName(now)
                if index != newIndex {
                    steps += Dialect.renameIndex(index, to: newIndex, creating: Dialect.indexStatements(now)[0]).map(Step.sql)
                }
                steps += renameConstraint(
                    Dialect.referenceConstraintName(entity: foreignKey.entity, column: foreignKey.column),
                    to: Dialect.referenceConstraintName(entity: now.entity, column: now.column), of: table)
                return steps
            case .foreignKeyOnDestination(let column, _):
                guard let inverse = relationship.inverseName,
                    let now = after.foreignKeys[relationship.destination]?.first(where: { $0.column == column && $0.relationship == inverse })
                else { return [] }
                return moveOneToOne(foreignKey, in: table, to: now)
            case .joinTable:
                return []
            }
        }

        /// A one-to-one whose other side now sorts first: its links move to a column on the
        /// other table, each row pointing back at the row that pointed at it, and the old column
        /// goes with its index (and, on PostgreSQL, its constraint).
        private func moveOneToOne(_ foreignKey: ForeignKeyDescription, in table: String, to now: ForeignKeyDescription) -> [Step] {
            let target = quoted(now.entity), holder = quoted(table)
            var steps: [Step] = Dialect.columnDefinitions(now).map { .sql("ALTER TABLE \(target) ADD COLUMN \($0)") }
            steps.append(
                .sql(
                    "UPDATE \(target) SET \(quoted(now.column)) = (SELECT \"o\".\"_id\" FROM \(holder) AS \"o\" WHERE \"o\".\(quoted(foreignKey.column)) = \(target).\"_id\")"
                ))
            steps.append(.sql("DROP INDEX IF EXISTS \(quoted(Dialect.foreignKeyIndexName(foreignKey)))"))
            steps.append(.sql("ALTER TABLE \(holder) DROP COLUMN \(quoted(foreignKey.column))"))
            steps += Dialect.indexStatements(now).map(Step.sql)
            if !Dialect.declaresReferences { steps.append(.sql(Dialect.referenceStatement(now))) }
            return steps
        }

        // MARK: - attribute indexes

        /// A renamed entity's unique, unique-together and blob indexes (and blob constraints),
        /// under its new name.
        private func attributeIndexSteps(_ entity: EntityDescription) -> [Step] {
            let newName = renames.entityName(entity.name)
            guard newName != entity.name else { return [] }
            var steps: [Step] = []
            for attribute in entity.attributes where attribute.isUnique {
                steps += Dialect.renameIndex(
                    Dialect.uniqueIndexName(entity: entity.name, attribute: attribute.name),
                    to: Dialect.uniqueIndexName(entity: newName, attribute: attribute.name),
                    creating: Dialect.uniqueIndexStatement(entity: newName, attribute: attribute.name)
                ).map(Step.sql)
            }
            for group in entity.uniqueTogether {
                steps += Dialect.renameIndex(
                    Dialect.uniqueTogetherIndexName(entity: entity.name, attributes: group),
                    to: Dialect.uniqueTogetherIndexName(entity: newName, attributes: group),
                    creating: Dialect.uniqueTogetherIndexStatement(entity: newName, attributes: group)
                ).map(Step.sql)
            }
            for attribute in entity.attributes where attribute.type == .binary {
                steps += Dialect.renameIndex(
                    Dialect.identifier(StoreSchema.blobIndexName(entity: entity.name, column: attribute.name)),
                    to: Dialect.identifier(StoreSchema.blobIndexName(entity: newName, column: attribute.name)),
                    creating: Dialect.blobIndexStatement(entity: newName, column: attribute.name)
                ).map(Step.sql)
                steps += renameConstraint(
                    Dialect.blobReferenceConstraintName(entity: entity.name, column: attribute.name),
                    to: Dialect.blobReferenceConstraintName(entity: newName, column: attribute.name), of: newName)
            }
            return steps
        }

        // MARK: - join tables

        /// A join table named after a renamed entity or relationship takes the new name; one whose
        /// other side now sorts first is made again with its columns swapped, so `src` always
        /// holds the side the table is named after.
        private func joinTableSteps(_ joinTable: JoinTableDescription) -> [Step] {
            guard let owner = SchemaMigrator.owner(of: joinTable, in: before), let relationship = renamed(owner.name, of: owner.source),
                case .joinTable(let table, let sourceColumn, _, _) = after.storage(of: relationship),
                let now = after.joinTables.first(where: { $0.name == table })
            else { return [] }
            guard sourceColumn == "src" else { return swapSides(joinTable, into: now) }
            guard table != joinTable.name else { return [] }
            let index = Dialect.identifier(joinTable.name + "_dst"), newIndex = Dialect.identifier(table + "_dst")
            return [.sql("ALTER TABLE \(quoted(joinTable.name)) RENAME TO \(quoted(table))")]
                + Dialect.renameIndex(index, to: newIndex, creating: Dialect.createStatements(for: now)[1]).map(Step.sql)
        }

        private func swapSides(_ joinTable: JoinTableDescription, into now: JoinTableDescription) -> [Step] {
            var pairs = [("src", "dst"), ("dst", "src")]
            if let position = now.sourcePositionColumn, let old = joinTable.destinationPositionColumn { pairs.append((position, old)) }
            if let position = now.destinationPositionColumn, let old = joinTable.sourcePositionColumn { pairs.append((position, old)) }
            let copy =
                "INSERT INTO \(quoted(now.name)) (\(pairs.map { quoted($0.0) }.joined(separator: ", "))) SELECT \(pairs.map { quoted($0.1) }.joined(separator: ", ")) FROM \(quoted(joinTable.name))"
            return (Dialect.createStatements(for: now) + [copy] + Dialect.dropTableStatements([joinTable.name])).map(Step.sql)
        }

        // MARK: - spellings

        private func renameColumn(_ column: String, to newColumn: String, of table: String) -> String {
            "ALTER TABLE \(quoted(table)) RENAME COLUMN \(quoted(column)) TO \(quoted(newColumn))"
        }

        private func renameConstraint(_ name: String, to newName: String, of table: String) -> [Step] {
            Dialect.renameConstraintStatements(on: table, from: name, to: newName).map(Step.sql)
        }
    }
}
