/// Writes the pieces of a streamed response body (see `HTTPResponse.streaming`).
///
/// `write` suspends while the connection already has more than a small window of unsent bytes,
/// so a slow client slows the producer down instead of filling memory; it throws
/// `HTTPBodyWriter.ConnectionClosed` once the client is gone, which tells the producer to stop.
public final class HTTPBodyWriter: Sendable {
    enum Event: Sendable {
        case chunk([UInt8], CheckedContinuation<Void, any Error>)
        case end
        case failed
    }

    /// The client connection closed (or the server shut down) before the body was complete.
    public struct ConnectionClosed: Error, CustomStringConvertible {
        public var description: String { "the client connection closed during a streamed response" }
    }

    private let deliver: @Sendable (Event) -> Void

    init(deliver: @escaping @Sendable (Event) -> Void) {
        self.deliver = deliver
    }

    public func write(_ bytes: [UInt8]) async throws {
        guard !bytes.isEmpty else { return }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            deliver(.chunk(bytes, continuation))
        }
    }

    public func write(_ text: String) async throws {
        try await write(Array(text.utf8))
    }

    func finish() { deliver(.end) }
    func fail() { deliver(.failed) }
}
