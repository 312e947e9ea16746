import ClonerModel
import ClonerStore

/// What to clone and how: the root object and the per-request options (docs/architecture.md#clone-semantics, #http-contract).
public struct CloneRequest: Sendable {
    public var entity: String
    public var id: Int64
    /// Properties left out of the clone: a bare name (`"data"`, `"note"`) applies to the root
    /// object only; `"Entity.name"` to that entity wherever it occurs in the clone.
    public var exclude: [String]
    /// Values for the root's clone, overriding every rule: attributes, or to-one relationships
    /// stored on the root (an `_id` as `.integer`, or `.null`).
    public var set: [String: AttributeValue]
    /// To-many relationships of the root's clone to link to these existing objects instead of what
    /// the rules give (the complete new list, in order for an ordered relationship).
    public var setLinks: [String: [Int64]]
    /// Plan and count only; write nothing.
    public var dryRun: Bool
    /// Include the old → new `_id` map per entity in the result.
    public var returnIDs: Bool
    /// Refuse (before writing anything) a clone that would create more objects than this.
    public var maximumObjects: Int
    /// How many copies of the root to make in one transaction (docs/architecture.md#many-copies); nil when the
    /// request did not ask for copies, which keeps the single-clone answer.
    public var copies: Int?
    /// Per copy (empty, or one entry per copy): `set` values merged over `set` for that copy.
    public var copySets: [[String: AttributeValue]]
    /// Refuse a request for more copies than this.
    public var maximumCopies: Int
    /// The copies limit unless configured otherwise (`maxCopies`).
    public static let defaultMaximumCopies = 1_000
    /// Refuse a request whose root `set` values, counted once per copy they apply to, hold more
    /// bytes than this: each copy stores its own, so `copies` multiplies what the body carries.
    public var maximumSetBytes: Int
    /// The set-bytes limit unless configured otherwise (`maxCloneSetBytes`): 64 MiB, eight
    /// request bodies' worth.
    public static let defaultMaximumSetBytes = 64 << 20

    public init(
        entity: String, id: Int64, exclude: [String] = [], set: [String: AttributeValue] = [:],
        setLinks: [String: [Int64]] = [:], dryRun: Bool = false, returnIDs: Bool = false, maximumObjects: Int = GraphCopyPlan.defaultMaximumObjects,
        copies: Int? = nil, copySets: [[String: AttributeValue]] = [], maximumCopies: Int = CloneRequest.defaultMaximumCopies,
        maximumSetBytes: Int = CloneRequest.defaultMaximumSetBytes
    ) {
        self.entity = entity
        self.id = id
        self.exclude = exclude
        self.set = set
        self.setLinks = setLinks
        self.dryRun = dryRun
        self.returnIDs = returnIDs
        self.maximumObjects = maximumObjects
        self.copies = copies
        self.copySets = copySets
        self.maximumCopies = maximumCopies
        self.maximumSetBytes = maximumSetBytes
    }
}
