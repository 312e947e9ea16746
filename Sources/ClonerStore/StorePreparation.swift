/// What opening a store did to its database. A model change that alters the schema is an event
/// an operator must be able to find in the log — which columns, tables and indexes a start added,
/// and from which model to which — so the store reports it rather than migrating silently.
public enum StorePreparation: Sendable, Hashable {
    /// An empty database (or a new SQLite file) was given the model's schema.
    case created
    /// The database already matched the model (or another replica migrated it first).
    case unchanged
    /// The schema was brought from the layout of one model to the current one (each named by
    /// its schema fingerprint, as the store records it);
    /// `changes` says what each step did, in order.
    case migrated(fromFingerprint: String, toFingerprint: String, changes: [String])
}
