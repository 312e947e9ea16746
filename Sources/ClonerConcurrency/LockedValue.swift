#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value guarded by a `pthread_mutex_t`, with the `withLock` shape of the standard library's
/// `Synchronization.Mutex`.
///
/// Why not `Mutex`: on Linux its contended path parks on a futex inside the uninstrumented
/// `libswiftSynchronization`, so the thread sanitizer never sees the acquire and reports every
/// access made under a contended lock as a race (a two-thread probe shows it in seconds). The
/// sanitizer intercepts `pthread_mutex_lock`/`unlock`, so with this lock a `--sanitize=thread`
/// run reports only real races — which is what lets it gate CI. Uncontended, both cost one atomic.
///
/// Not `Sendable` by itself: only when `Value` is (see the extension below), so a non-`Sendable`
/// value can't be shared between threads through the lock.
public final class LockedValue<Value> {
    /// Heap-allocated so its address never moves: a `pthread_mutex_t` must not be copied or moved
    /// once initialised, and `&storedProperty` promises no stable address.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ initialValue: Value) {
        value = initialValue
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value. `body` must not call `withLock` on the
    /// same instance: the mutex is not recursive and would deadlock.
    public func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let locked = pthread_mutex_lock(mutex)
        precondition(locked == 0, "pthread_mutex_lock failed: \(locked)")
        defer {
            let unlocked = pthread_mutex_unlock(mutex)
            precondition(unlocked == 0, "pthread_mutex_unlock failed: \(unlocked)")
        }
        return try body(&value)
    }
}

/// `@unchecked Sendable`: `value` is only read or written between `pthread_mutex_lock` and
/// `pthread_mutex_unlock` on `mutex`, the closure's `inout` access cannot escape `withLock`, and
/// `Value` itself may cross threads.
extension LockedValue: @unchecked Sendable where Value: Sendable {}
