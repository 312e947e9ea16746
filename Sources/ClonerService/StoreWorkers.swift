import Dispatch
import Synchronization

/// The queues that run store requests (SQLite blocks), so event loops never wait on the disk.
/// A fixed set of serial queues taken in turn: a bounded number of threads however many requests
/// arrive, where a concurrent queue would start a new thread for every blocked block.
final class StoreWorkers: Sendable {
    private let queues: [DispatchQueue]
    private let next = Atomic<Int>(0)

    init(label: String, count: Int) {
        precondition(count > 0)
        queues = (0..<count).map { DispatchQueue(label: "cloner.store.\(label).\($0)", qos: .userInitiated) }
    }

    func submit(_ work: @escaping @Sendable () -> Void) {
        let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
        queues[index % queues.count].async(execute: work)
    }
}
