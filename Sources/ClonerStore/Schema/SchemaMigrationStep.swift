/// One step of a migration (`SchemaMigrator`), as a store runs it and logs it.
enum SchemaMigrationStep: Equatable {
    case sql(String)
    /// Making an attribute required is safe only if no row lacks it.
    case requireNoNulls(entity: String, column: String)
    /// Adding a unique index fails if duplicates exist; say so instead of a raw database error.
    case createUniqueIndex(entity: String, attribute: String)
    /// The same for a `uniqueTogether` group.
    case createUniqueTogetherIndex(entity: String, attributes: [String])
    /// A renamed entity's rows keep their clone lineage (`_cloner_lineage` names the entity); a
    /// store made before lineage existed has no such table yet, and nothing to carry.
    case renameLineage(entity: String, to: String)
    /// Stored entities that now share `hierarchy`'s one `_id` space (a model that put them under
    /// an abstract parent) must not hold one `_id` twice: an `_id` names one object of a
    /// hierarchy, and renumbering would change ids clients hold.
    case requireOneIDSpace(hierarchy: String, entities: [String])
}

extension SchemaMigrationStep {
    /// The step as a line of the start-up log.
    var logDescription: String {
        switch self {
        case .sql(let sql): return sql
        case let .requireNoNulls(entity, column): return "\(entity).\(column) made required (no row lacks it)"
        case let .createUniqueIndex(entity, attribute): return "unique index on \(entity).\(attribute)"
        case let .createUniqueTogetherIndex(entity, attributes):
            return "unique index on \(entity) (\(attributes.joined(separator: ", ")))"
        case let .renameLineage(entity, newName): return "clone lineage of \(entity) kept under \(newName)"
        case let .requireOneIDSpace(hierarchy, entities):
            return "\(entities.joined(separator: ", ")) share the _ids of hierarchy \(hierarchy) (none held twice)"
        }
    }
}
