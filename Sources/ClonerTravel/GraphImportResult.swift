import ClonerClone

/// What an import made (or, for a dry run, would make): the clone answer's counts and ids, and
/// for a dry run every conflict that would refuse the real import.
public struct GraphImportResult: Sendable, Hashable {
    public var result: CloneResult
    /// Shared objects not found on the target (dry run without `createMissing`), each described.
    public var conflicts: [String]

    public init(result: CloneResult, conflicts: [String]) {
        self.result = result
        self.conflicts = conflicts
    }
}
