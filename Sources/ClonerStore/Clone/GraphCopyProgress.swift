import Foundation

/// How far a bulk copy (a clone, or a graph import) has got, updated by the writer and read by the
/// jobs API while it runs on its job's queue.
///
/// `@unchecked Sendable`: both counters are only read and written under `lock`.
public final class GraphCopyProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var _planned = 0
    private var _written = 0

    public init() {}

    /// Objects the copy will create (known once the walk is done).
    public var planned: Int { lock.withLock { _planned } }
    /// Objects written so far.
    public var written: Int { lock.withLock { _written } }

    public func setPlanned(_ count: Int) { lock.withLock { _planned = count } }
    public func addWritten(_ count: Int) { lock.withLock { _written += count } }
}
