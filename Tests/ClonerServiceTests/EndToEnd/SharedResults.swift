import ClonerConcurrency

/// Answers collected from client threads (one box the threads share).
final class SharedResults<Value: Sendable>: Sendable {
    private let values = LockedValue<[Value]>([])

    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}
