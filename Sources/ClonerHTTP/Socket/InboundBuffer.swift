#if canImport(Glibc)
import Glibc
#endif

/// A connection's receive buffer: bytes are read straight into it and parsed in place.
///
/// Owned by one connection on one loop thread, hence a plain class and not Sendable. It starts
/// small (an idle keep-alive connection should cost little) and grows only up to `maxCapacity`,
/// which the server sets just above what the header limits allow.
final class InboundBuffer {
    private var storage: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    let maxCapacity: Int
    private var readerIndex = 0
    private var writerIndex = 0

    init(initialCapacity: Int, maxCapacity: Int) {
        capacity = initialCapacity
        self.maxCapacity = max(maxCapacity, initialCapacity)
        storage = .allocate(capacity: initialCapacity)
    }

    deinit { storage.deallocate() }

    var readableCount: Int { writerIndex - readerIndex }
    var isEmpty: Bool { writerIndex == readerIndex }

    /// Makes room for at least `minimum` more bytes if the limit allows; returns the writable space.
    func reserveWritable(_ minimum: Int) -> Int {
        if readerIndex == writerIndex {
            readerIndex = 0
            writerIndex = 0
        }
        if capacity - writerIndex >= minimum { return capacity - writerIndex }
        if readerIndex > 0 {
            let count = writerIndex - readerIndex
            memmove(storage, storage + readerIndex, count)
            readerIndex = 0
            writerIndex = count
        }
        if capacity - writerIndex < minimum && capacity < maxCapacity {
            let newCapacity = min(maxCapacity, max(capacity * 2, writerIndex + minimum))
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            bigger.update(from: storage, count: writerIndex)
            storage.deallocate()
            storage = bigger
            capacity = newCapacity
        }
        return capacity - writerIndex
    }

    /// The writable tail, for `read(2)` or `SSL_read` to fill; then call `didWrite`.
    var writablePointer: UnsafeMutablePointer<UInt8> { storage + writerIndex }

    func didWrite(_ count: Int) { writerIndex += count }

    func withReadableBytes<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeBufferPointer(start: storage + readerIndex, count: writerIndex - readerIndex))
    }

    func consume(_ count: Int) {
        precondition(count <= readableCount, "consumed \(count) of \(readableCount) bytes")
        readerIndex += count
    }

    func clear() {
        readerIndex = 0
        writerIndex = 0
    }
}
