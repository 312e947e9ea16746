import Synchronization

/// How many read and write transactions a store has run, for tests that hold a request to the
/// transactions its semantics need (every transaction is a commit, and on SQLite a turn at the
/// single writer).
package final class TransactionCounter: Sendable {
    private let reads = Atomic<Int>(0)
    private let writes = Atomic<Int>(0)

    package init() {}

    /// Both counts, read one after the other (a transaction may finish in between).
    package var counts: (reads: Int, writes: Int) {
        (reads.load(ordering: .relaxed), writes.load(ordering: .relaxed))
    }

    func countRead() { reads.add(1, ordering: .relaxed) }
    func countWrite() { writes.add(1, ordering: .relaxed) }
}
