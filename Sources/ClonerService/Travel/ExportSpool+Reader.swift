import ClonerHTTP
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

extension ExportSpool {
    /// Bytes read from the file and handed to the connection at once: memory per export is this
    /// and the connection's own window, whatever the document's size.
    static let pieceBytes = 256 * 1024
    /// The reader gives space back in whole runs of this many bytes behind it, not after every
    /// piece: fewer calls, and what a stalled client's kernel buffers took (megabytes on a local
    /// connection) does not make the count move — a document smaller than this counts whole
    /// until its client is done.
    static let punchBytes = 8 << 20

    /// The reader's side. It exists before the response goes to the server: a response the server
    /// drops unsent (the client left before the head) still leaves through `deinit`, so the
    /// producer stops and the space is given back.
    final class Reader: Sendable {
        let spool: ExportSpool
        private let left = Atomic<Bool>(false)

        init(_ spool: ExportSpool) {
            self.spool = spool
        }

        deinit { leave(completed: false) }

        /// Sends the document to `writer` as it is spooled. Throws when the client leaves, or when
        /// the producer failed (the server then cuts the connection: a body without its end).
        func send(to writer: HTTPBodyWriter) async throws {
            var offset = 0
            var completed = false
            defer { leave(completed: completed) }
            while let piece = try await spool.piece(from: offset) {
                try await writer.write(piece)
                offset += piece.count
                spool.taken(upTo: offset)
            }
            completed = true
        }

        private func leave(completed: Bool) {
            guard !left.exchange(true, ordering: .acquiringAndReleasing) else { return }
            spool.readerLeft(completed: completed)
        }
    }

    private enum Step {
        case read(Int)
        case end
        case failed(String)
        case wait
    }

    /// The next piece from `offset`, waiting for the producer when the reader has caught up; nil
    /// once the document is complete and all of it was read.
    func piece(from offset: Int) async throws -> [UInt8]? {
        while true {
            let step: Step = state.withLock { state in
                if case .failed(let reason) = state.ending { return .failed(reason) }
                if state.written > offset { return .read(min(Self.pieceBytes, state.written - offset)) }
                return state.ending == nil ? .wait : .end
            }
            switch step {
            case .failed(let reason): throw ProducerFailed(reason: reason)
            case .end: return nil
            case .read(let count): return try read(count, at: offset)
            case .wait:
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let ready = state.withLock { state in
                        if state.written > offset || state.ending != nil { return true }
                        state.waiter = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            }
        }
    }

    private func read(_ count: Int, at offset: Int) throws -> [UInt8] {
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            while initialized < count {
                let read = pread(descriptor, buffer.baseAddress! + initialized, count - initialized, off_t(offset + initialized))
                if read < 0 && errno == EINTR { continue }
                if read < 0 { failure = errno }
                if read <= 0 { return }
                initialized += read
            }
        }
        guard bytes.count < count else { return bytes }
        // A short read: the producer failed and emptied the file meanwhile, or the disk failed.
        if case .failed(let reason) = state.withLock({ $0.ending }) { throw ProducerFailed(reason: reason) }
        throw FileFailure(operation: "reading \(count) bytes at \(offset)", code: failure == 0 ? EIO : failure)
    }

    /// The client took everything before `offset`: whole runs of `punchBytes` behind it leave the
    /// file and the budget. A file system that cannot punch holes keeps them until the end.
    func taken(upTo offset: Int) {
        let run: Range<Int>? = state.withLock { state in
            let end = offset / Self.punchBytes * Self.punchBytes
            guard end > state.punched, !state.spaceReleased else { return nil }
            return state.punched..<end
        }
        guard let run, let fallocate = Self.fallocate else { return }
        // FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE: the bytes go, offsets stay.
        guard fallocate(descriptor, 0x02 | 0x01, off_t(run.lowerBound), off_t(run.count)) == 0 else { return }
        state.withLock { state in
            state.punched = run.upperBound
            guard !state.spaceReleased else { return }
            state.reserved -= run.count
            _ = budget.resize(from: run.count, to: 0)
        }
    }

    /// The reader is done: the client took everything, or left. Either way the space goes now;
    /// a producer still running stops at its next piece.
    func readerLeft(completed: Bool) {
        if !completed { state.withLock { $0.readerGone = true } }
        releaseSpace()
        leave()
    }

    /// `fallocate(2)`, which Swift's Glibc module does not declare (it needs `_GNU_SOURCE`),
    /// looked up once in the C library.
    private static let fallocate: (@convention(c) (Int32, Int32, off_t, off_t) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "fallocate") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32, off_t, off_t) -> Int32).self)
    }()
}
