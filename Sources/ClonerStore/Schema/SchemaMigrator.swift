import ClonerModel

/// Works out how to bring a store from the layout it records to the one a new model needs, once
/// for every backend: the decision (what is accepted, what is refused and why) and the steps,
/// spelled in the backend's `Dialect`. Applied: a new entity, a new optional or defaulted
/// attribute, a new relationship, `originalName` renames, entities and relationships renamed
/// through their Renaming ID (`SchemaRenames`), `unique` or `uniqueTogether` added or
/// dropped, required made optional, and the removal of an entity, attribute or relationship — its
/// table, column or join table dropped, once the store finds it holds no data (`SchemaRemoval`).
/// Everything else is refused with the reason, because a silent guess would lose data. Both
/// backends therefore accept and refuse exactly the same model changes with the same reasons, and
/// the same change gives the same steps in the same order.
struct SchemaMigrator<Dialect: SQLDialect> {
    typealias Step = SchemaMigrationStep

    let old: SchemaSnapshot
    let new: DataModel

    func plan() -> SchemaMigrationPlan {
        // Renamed entities and relationships are planned as kept ones: their storage takes the
        // new names first, and everything after compares the renamed snapshot with the new model.
        let renames = SchemaRenames(old: old, new: new)
        let oldModel = renames.renamed(old).makeModel()
        let oldSchema = StoreSchema(model: oldModel)
        let newSchema = StoreSchema(model: new)
        var plan = SchemaMigrationPlan()
        plan.refusals = renames.refusals
        if !renames.isEmpty {
            plan.renames = RenamedStorage(renames: renames, before: StoreSchema(model: old.makeModel()), after: oldSchema).steps()
        }
        // References a backend adds apart from their columns go last: a new column may name a
        // table created further on.
        var references: [Step] = []

        plan.steps += joinedIDSpaces(oldModel: oldModel)
        for entity in new.entities {
            guard let oldEntity = oldModel.entity(named: entity.name) else {
                plan.steps += Dialect.createStatements(for: entity, in: newSchema).map(Step.sql)
                references += Dialect.referenceStatements(for: entity, in: newSchema).map(Step.sql)
                continue
            }
            let change = KeptEntity(
                entity: entity, old: oldEntity, oldSchema: oldSchema, newSchema: newSchema, refusedRenames: renames.refusedRelationships)
            change.plan(into: &plan, references: &references)
        }

        // The tables go once nothing kept refers to them: join tables, then the removed entities'.
        var droppedTables: [String] = []
        let newJoinTables = Set(newSchema.joinTables.map(\.name))
        for joinTable in oldSchema.joinTables where !newJoinTables.contains(joinTable.name) {
            guard let owner = Self.owner(of: joinTable, in: oldSchema), new.entity(named: owner.source)?.relationship(named: owner.name) == nil
            else { continue }  // a kept relationship stored differently: refused as changed
            plan.removals.append(.joinTable(entity: owner.source, relationship: owner.name, table: joinTable.name))
            droppedTables.append(joinTable.name)
        }
        let newNames = Set(new.entities.map(\.name))
        for removed in oldModel.entities where !newNames.contains(removed.name) {
            plan.removals.append(.entity(removed.name))
            droppedTables.append(removed.name)
            // Its ids stay issued in its hierarchy's space, if the hierarchy keeps a table.
            if let hierarchy = removed.hierarchy, let sibling = new.entities.first(where: { $0.hierarchy == hierarchy }) {
                plan.steps += Dialect.carryIssuedIDs(from: removed.name, to: sibling.name).map(Step.sql)
            }
        }
        if !droppedTables.isEmpty { plan.steps += Dialect.dropTableStatements(droppedTables).map(Step.sql) }

        let oldJoinTables = Set(oldSchema.joinTables.map(\.name))
        for joinTable in newSchema.joinTables where !oldJoinTables.contains(joinTable.name) {
            plan.steps += Dialect.createStatements(for: joinTable).map(Step.sql)
        }
        plan.steps += references
        return plan
    }

    /// Stored entities that come under a hierarchy's one `_id` space (a new abstract parent, or a
    /// store recorded before spaces were kept) must hold no `_id` twice; the space itself is
    /// started past all they issued as the store opens (`SQLDialect.idSpaceStatements`).
    private func joinedIDSpaces(oldModel: DataModel) -> [Step] {
        var steps: [Step] = []
        var hierarchies: [String] = []
        for entity in new.entities where entity.hierarchy != nil && !hierarchies.contains(entity.hierarchy!) { hierarchies.append(entity.hierarchy!) }
        for hierarchy in hierarchies {
            let kept = new.entities.filter { $0.hierarchy == hierarchy && oldModel.entity(named: $0.name) != nil }.map(\.name)
            guard kept.contains(where: { oldModel.entity(named: $0)?.hierarchy != hierarchy }) else { continue }
            if kept.count > 1 { steps.append(.requireOneIDSpace(hierarchy: hierarchy, entities: kept)) }
        }
        return steps
    }

    /// The relationship whose storage `joinTable` is, on the side that names it.
    static func owner(of joinTable: JoinTableDescription, in schema: StoreSchema) -> RelationshipDescription? {
        schema.model.entity(named: joinTable.sourceEntity)?.relationships.first { relationship in
            if case .joinTable(joinTable.name, "src", _, _) = schema.storage(of: relationship) { return true }
            return false
        }
    }
}
