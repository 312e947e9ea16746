/// How an import runs, from the request's query parameters (or the command line).
public struct GraphImportOptions: Sendable, Hashable {
    /// Count, match and report conflicts; write nothing.
    public var dryRun: Bool
    /// Answer the old → new `_id` map per entity (old: the document's local references).
    public var returnIDs: Bool
    /// Create the shared objects the target does not hold (from the attributes their reference
    /// lines carry) instead of refusing the import.
    public var createMissing: Bool
    /// Properties left out, as a clone's `exclude`: bare names for the root, `Entity.property` everywhere.
    public var exclude: [String]
    /// Refuse (before writing anything) a document of more objects than this.
    public var maximumObjects: Int
    /// The largest text or json value a line may bring, in bytes: what a create's body can carry
    /// (`http.maxBodyBytes`), so an import stores no value that no create could. Binary values are
    /// not bounded by it: they reach the store through their own streamed route too, and a line
    /// carries them as an export wrote them.
    public var maximumValueBytes: Int

    /// 8 MiB: the JSON body limit's default.
    public static let defaultMaximumValueBytes = 8 << 20

    public init(
        dryRun: Bool = false, returnIDs: Bool = false, createMissing: Bool = false, exclude: [String] = [],
        maximumObjects: Int = 1_000_000, maximumValueBytes: Int = GraphImportOptions.defaultMaximumValueBytes
    ) {
        self.dryRun = dryRun
        self.returnIDs = returnIDs
        self.createMissing = createMissing
        self.exclude = exclude
        self.maximumObjects = maximumObjects
        self.maximumValueBytes = maximumValueBytes
    }
}
