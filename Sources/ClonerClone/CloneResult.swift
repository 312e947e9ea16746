import ClonerStore

/// What a clone made (or, for a dry run, would make).
public struct CloneResult: Sendable, Hashable, Codable {
    public struct ObjectRef: Sendable, Hashable, Codable {
        public var entity: String
        public var id: Int64
        public init(entity: String, id: Int64) {
            self.entity = entity
            self.id = id
        }
    }

    public var source: ObjectRef
    /// The root's clone; for a dry run, the `_id` it would get.
    public var clone: ObjectRef
    /// Every copy's root clone in order, when the request asked for `copies` (docs/architecture.md#many-copies);
    /// `clone` is the first of them.
    public var clones: [ObjectRef]?
    /// Objects created per entity (only entities with a non-zero count).
    public var created: [String: Int]
    /// Distinct shared objects the clone links to, per entity (only non-zero counts).
    public var linked: [String: Int]
    /// Old `_id` → new `_id` per entity, when asked for.
    public var ids: [String: [Int64: Int64]]?
    /// Per copy, old `_id` → new `_id` per entity, when asked for with `copies`.
    public var copyIDs: [[String: [Int64: Int64]]]?
    public var dryRun: Bool
    /// For a dry run, the values `rebuild: suffix` would give, per `Entity.attribute`, in the
    /// order of the new `_id`s (a root's copies in copy order); nil when there are none
    /// (docs/architecture.md#unique-values-on-copy).
    public var values: [String: [String]]?
    /// For a dry run, every unique attribute or `uniqueTogether` group the clone would repeat a
    /// value of (and so answer 409 for), with the objects that would; nil when there are none.
    public var conflicts: [Conflict]?

    /// A unique constraint a dry run found the clone would break (the store's finding as it is).
    public typealias Conflict = GraphCopyClash

    /// Public for an import, which answers as a clone does (`GraphImportResult`).
    public init(
        source: ObjectRef, clone: ObjectRef, clones: [ObjectRef]?, created: [String: Int], linked: [String: Int], ids: [String: [Int64: Int64]]?,
        copyIDs: [[String: [Int64: Int64]]]?, dryRun: Bool, values: [String: [String]]? = nil, conflicts: [Conflict]? = nil
    ) {
        self.conflicts = conflicts
        self.source = source
        self.clone = clone
        self.clones = clones
        self.created = created
        self.linked = linked
        self.ids = ids
        self.copyIDs = copyIDs
        self.dryRun = dryRun
        self.values = values
    }

    public var totalCreated: Int { created.values.reduce(0, +) }
}
