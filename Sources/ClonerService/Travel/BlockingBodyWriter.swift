import ClonerConcurrency
import ClonerHTTP
import Dispatch

/// Hands bytes produced on a thread that must not leave a store transaction (a read's body is
/// synchronous) to a streamed response's async writer, one piece at a time: `write` returns once
/// the connection took the piece, so a slow client slows the export down and memory holds one
/// piece, never the document.
final class BlockingBodyWriter: Sendable {
    private let writer: HTTPBodyWriter

    init(_ writer: HTTPBodyWriter) {
        self.writer = writer
    }

    /// Blocks the calling (non-cooperative) thread until the piece is written; throws the
    /// writer's error, `HTTPBodyWriter.ConnectionClosed` once the client is gone.
    func write(_ bytes: [UInt8]) throws {
        let done = DispatchSemaphore(value: 0)
        let failure = LockedValue<(any Error & Sendable)?>(nil)
        let writer = self.writer
        Task {
            do {
                try await writer.write(bytes)
            } catch {
                failure.withLock { $0 = error }
            }
            done.signal()
        }
        done.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }
}
