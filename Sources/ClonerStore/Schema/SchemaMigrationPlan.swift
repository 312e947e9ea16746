/// What `SchemaMigrator` decided for one model change: the steps, what they drop that must first
/// be found empty, and the changes refused outright. A store counts the removals and runs the
/// steps in one transaction, so a refusal found by counting changes nothing either.
struct SchemaMigrationPlan: Equatable {
    /// Renamed entities' and relationships' storage given the new names (`SchemaRenames`), run
    /// first: the removals and the steps name tables and columns as the new model does.
    var renames: [SchemaMigrationStep] = []
    /// In the order they run, after the renames.
    var steps: [SchemaMigrationStep] = []
    /// Checked, all of them, before the first step runs.
    var removals: [SchemaRemoval] = []
    /// Changes no store could apply without losing or inventing data, whatever it holds.
    var refusals: [String] = []

    /// What the migration did, for the start-up log: the renames, the removals (found empty),
    /// then each step.
    var changes: [String] { renames.map(\.logDescription) + removals.map(\.logDescription) + steps.map(\.logDescription) }
}
