import ClonerModel

/// The sequence an inheritance hierarchy's tables share (docs/architecture.md#relationships-into-a-hierarchy):
/// every id a create, a clone or an import gives one of them is taken from it, so an `_id` names
/// one object of the hierarchy. Its name starts with `_`, which no model name may.
extension PostgreSQLSchema {
    /// The quoted name of `hierarchy`'s sequence.
    static func idSequence(hierarchy: String) -> String {
        quoted(identifier("_ids_\(hierarchy)"))
    }

    /// The quoted name of the sequence `entity` takes its ids from when it is part of a
    /// hierarchy; nil for an entity numbered by its own identity sequence.
    static func idSequence(of entity: String, in model: DataModel) -> String? {
        model.entity(named: entity)?.hierarchy.map(idSequence(hierarchy:))
    }
}
