/// What a bulk copy made (or, for a dry run, would make), in model terms.
public struct GraphCopyResult: Sendable, Hashable {
    /// The root's clone per copy; for a dry run, the `_id` each would get.
    public var cloneIDs: [Int64]
    /// Objects created per entity, all copies together (only non-zero counts).
    public var created: [String: Int]
    /// Distinct shared objects linked, per entity (only non-zero counts).
    public var linked: [String: Int]
    /// Per copy, old `_id` → new `_id` per entity, when the plan asks for it.
    public var ids: [[String: [Int64: Int64]]]?
    /// For a dry run, the values `rebuild: suffix` would give, per `Entity.attribute`, in the
    /// order of the copies' new `_id`s (a root's copies in copy order); empty otherwise.
    public var suffixedValues: [String: [String]]
    /// For a dry run, every unique constraint the copy would break; empty otherwise.
    public var clashes: [GraphCopyClash]

    public init(
        cloneIDs: [Int64], created: [String: Int], linked: [String: Int], ids: [[String: [Int64: Int64]]]?, suffixedValues: [String: [String]] = [:],
        clashes: [GraphCopyClash] = []
    ) {
        self.clashes = clashes
        self.cloneIDs = cloneIDs
        self.created = created
        self.linked = linked
        self.ids = ids
        self.suffixedValues = suffixedValues
    }
}
