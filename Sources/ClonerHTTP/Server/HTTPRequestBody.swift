import ClonerConcurrency

/// The body of a request whose route streams it (`HTTPHandler.streamed`): chunks in arrival
/// order, each at most 64 KiB (what one pass over the connection's buffer parsed), never the
/// whole body at once.
///
/// Filled by the connection's event loop, drained by the handler's task. While more than
/// `window` bytes wait unconsumed the connection stops reading its socket, so a slow handler
/// slows the client down (TCP flow control) instead of filling memory; once the handler has
/// taken the queue below the window the loop reads again.
///
/// Iteration ends with nil after the last byte of the body, or throws: a `FramingError` (an
/// `HTTPResponseError`: 413 once the body passes the route's limit, 400 for bad chunked framing,
/// 408 when the client stalls), or `ConnectionClosed` when the client goes away first. The
/// connection has already answered or closed by then; rethrowing is all a handler needs to do.
/// Iterate from one task at a time.
public final class HTTPRequestBody: AsyncSequence, Sendable {
    public typealias Element = [UInt8]
    public typealias Failure = any Error

    /// What the consumer tells the connection (on the loop thread, through `signal`).
    enum Signal: Sendable {
        /// The handler asked for the first chunk: the moment to send `100 Continue`.
        case started
        /// The handler took the queue from above the window to below it: read again.
        case drained
    }

    /// The client went away (or the server closed the connection) before the body was complete.
    public struct ConnectionClosed: Error, CustomStringConvertible {
        public var description: String { "the client connection closed before the request body was complete" }
    }

    /// The handler answered before reading the whole body; the rest is not read (the connection
    /// closes after the answer).
    public struct AnsweredEarly: Error, CustomStringConvertible {
        public var description: String { "the response was sent before the request body was read" }
    }

    /// The body broke its framing or a limit; the connection answered with `status` and closed.
    /// As an `HTTPResponseError` it answers for itself when a handler rethrows it.
    public struct FramingError: HTTPResponseError, CustomStringConvertible {
        public let status: HTTPStatus
        public let reason: String
        let errorResponse: @Sendable (HTTPErrorContext) -> HTTPResponse

        public func response(for request: HTTPRequest) -> HTTPResponse {
            var response = errorResponse(HTTPErrorContext(status: status, reason: reason, requestID: request.id, request: request))
            response.headers.set("Connection", "close")
            return response
        }

        public var description: String { "\(status.code): \(reason)" }
    }

    private struct State {
        var chunks: [[UInt8]] = []
        var head = 0
        var queuedBytes = 0
        /// The connection stopped reading because `queuedBytes` passed the window.
        var paused = false
        var started = false
        var finished = false
        var error: (any Error & Sendable)?
        var waiter: CheckedContinuation<[UInt8]?, any Error>?
    }

    /// The request's `Content-Length`, when the client sent one (nil for a chunked body).
    public let expectedLength: Int?
    let window: Int
    /// The largest chunk the body hands over.
    public static let maximumPiece = Connection.requestBodyChunk
    /// The most unconsumed bytes the body queues for its handler: the window and the piece that
    /// passed it (the connection then stops reading). With what the handler keeps of its own,
    /// what one streamed request may cost the process.
    public var maximumQueuedBytes: Int { window + Self.maximumPiece }
    /// `LockedValue`, not the standard library's `Mutex`: on Linux the latter waits in the
    /// uninstrumented Synchronization library, so the thread sanitizer would report every access
    /// under a contended lock as a race.
    private let state = LockedValue(State())
    private let signal: @Sendable (Signal) -> Void

    init(expectedLength: Int?, window: Int, signal: @escaping @Sendable (Signal) -> Void) {
        self.expectedLength = expectedLength
        self.window = window
        self.signal = signal
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let body: HTTPRequestBody

        public mutating func next() async throws -> [UInt8]? {
            try await body.next()
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> [UInt8]? {
            try await body.next()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(body: self) }

    /// Reads the whole remaining body, refusing more than `limit` bytes: for a handler that wants a
    /// small body whole after all (a manifest before an upload, say).
    public func collect(upTo limit: Int) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        for try await chunk in self {
            guard chunk.count <= limit - bytes.count else {
                throw CollectLimitExceeded(limit: limit)
            }
            bytes.append(contentsOf: chunk)
        }
        return bytes
    }

    /// `collect(upTo:)` met more bytes than its limit.
    public struct CollectLimitExceeded: Error, CustomStringConvertible {
        public let limit: Int
        public var description: String { "the request body is larger than \(limit) bytes" }
    }

    private enum Take {
        /// `resume`: this take brought a paused queue below the window.
        case chunk([UInt8], resume: Bool)
        case end
        case failed(any Error)
        case wait
    }

    private func next() async throws -> [UInt8]? {
        let (outcome, first) = state.withLock { state -> (Take, Bool) in
            let first = !state.started
            state.started = true
            return (Self.take(&state, window: window), first)
        }
        if first { signal(.started) }
        switch outcome {
        case .chunk(let chunk, let resume):
            if resume { signal(.drained) }
            return chunk
        case .end:
            return nil
        case .failed(let error):
            throw error
        case .wait:
            break
        }
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8]?, any Error>) in
            // Looked at again under the lock: the loop may have delivered since.
            let ready = state.withLock { state -> Take in
                let take = Self.take(&state, window: window)
                if case .wait = take {
                    precondition(state.waiter == nil, "an HTTPRequestBody iterated from two tasks at once")
                    state.waiter = continuation
                }
                return take
            }
            switch ready {
            case .chunk(let chunk, let resume):
                if resume { signal(.drained) }
                continuation.resume(returning: chunk)
            case .end:
                continuation.resume(returning: nil)
            case .failed(let error):
                continuation.resume(throwing: error)
            case .wait:
                break  // `append`, `finish` or `fail` resumes it
            }
        }
    }

    /// The next chunk, the end or the failure, under the lock. Queued chunks come before a
    /// failure: they arrived intact, and the handler may want to know how far the body got.
    private static func take(_ state: inout State, window: Int) -> Take {
        if state.head < state.chunks.count {
            let chunk = state.chunks[state.head]
            state.chunks[state.head] = []
            state.head += 1
            if state.head == state.chunks.count {
                state.chunks.removeAll(keepingCapacity: true)
                state.head = 0
            }
            state.queuedBytes -= chunk.count
            let resume = state.paused && state.queuedBytes <= window
            if resume { state.paused = false }
            return .chunk(chunk, resume: resume)
        }
        if let error = state.error { return .failed(error) }
        return state.finished ? .end : .wait
    }

    // MARK: The connection's side (its loop thread)

    /// Hands over the next piece of the body; true when the unconsumed bytes now pass the window
    /// and the connection must stop reading until `.drained`.
    func append(_ chunk: [UInt8]) -> Bool {
        enum Outcome {
            case handed(CheckedContinuation<[UInt8]?, any Error>)
            case queued(pause: Bool)
        }
        let outcome = state.withLock { state -> Outcome in
            if state.finished || state.error != nil { return .queued(pause: false) }
            if let waiter = state.waiter {
                state.waiter = nil
                return .handed(waiter)
            }
            state.chunks.append(chunk)
            state.queuedBytes += chunk.count
            if state.queuedBytes > window { state.paused = true }
            return .queued(pause: state.paused)
        }
        switch outcome {
        case .handed(let waiter):
            waiter.resume(returning: chunk)
            return false
        case .queued(let pause):
            return pause
        }
    }

    /// The body ended intact: iteration returns nil after the queued chunks.
    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<[UInt8]?, any Error>? in
            guard !state.finished && state.error == nil else { return nil }
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The body will not complete: iteration throws `error` after the queued chunks. Ignored once
    /// the body ended or failed.
    func fail(_ error: any Error) {
        let waiter = state.withLock { state -> CheckedContinuation<[UInt8]?, any Error>? in
            guard !state.finished && state.error == nil else { return nil }
            state.error = error
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(throwing: error)
    }

    /// Unconsumed bytes (for tests and the access log).
    var queuedBytes: Int { state.withLock { $0.queuedBytes } }
}
