import Synchronization

/// Answers collected from client threads (a `Mutex` is not copyable, so threads share this box).
final class SharedResults<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}
