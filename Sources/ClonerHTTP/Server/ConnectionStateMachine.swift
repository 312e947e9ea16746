/// The life of one client connection as a value: which request it is receiving or answering,
/// whether the client may still send, when its deadlines fall. `Connection` feeds it events
/// (bytes read, head parsed, handler answered, output drained, timer fired, …) and executes the
/// `Action` each transition returns; the machine itself does no I/O, so every sequence of events
/// can be tested without a socket.
///
/// Each state carries exactly the data it needs, so combinations that used to be expressible
/// with loose flags — a pending body buffer with no request, "close after flush" while a handler
/// still runs, a half-closed peer on a lingering connection — cannot be represented. An event
/// that is impossible in the current state is a programmer mistake and stops the process
/// (`preconditionFailure`); an event that can legitimately arrive late (a handler answering a
/// request of a connection that has moved on) returns `.nothing`.
///
/// A value type with no closures or existentials: a transition allocates nothing (body bytes
/// are appended in place, see `bodyReceived`).
struct ConnectionStateMachine {
    /// The body of the request in `.receivingBody`, kept beside the state rather than in its
    /// payload: bytes appended to an array inside an enum payload are appended in place only if
    /// the optimizer releases the enum's copy first, which it need not do — and when it did not,
    /// every read's bytes copied the whole body so far: a 7 MB body took 0.7 s of CPU, growing
    /// with its square. A stored property is mutated in place.
    private(set) var receivedBody: [UInt8] = []
    /// Whether the client can still send. After its FIN (RFC 9112 §9.6) what it sent completely is
    /// answered, the answer carries `Connection: close`, and then the connection closes.
    enum Peer: Equatable {
        case open
        case halfClosed
    }

    /// A request whose head was parsed: its body is arriving (or it has none and `.end` follows).
    struct Receiving {
        var head: RequestHead
        /// When the request's first byte arrived (for the access log's duration).
        var startedAt: UInt64
        /// When the body began (the end of the head), and how many body bytes arrived since: the
        /// minimum-rate deadline grows with the bytes received, not the ones declared.
        var bodyStartedAt: UInt64
        var bodyReceived: Int
        var peer: Peer
    }

    /// A complete request handed to `Connection` to route; it answers `requestRouted` with the
    /// `HTTPRequest` it built before anything else can happen.
    struct Dispatching {
        var number: Int
        var head: RequestHead
        var startedAt: UInt64
        var peer: Peer
        /// Only the head is in: its route streams the body, which arrives while the handler runs.
        var streamedBody: StreamedBodyStart?
    }

    /// What a streamed body needs from its head until it is routed.
    struct StreamedBodyStart {
        var bodyStartedAt: UInt64
        var continuePending: Bool
    }

    /// A request whose handler runs while its body still arrives (`HTTPHandler.streamed`). Its
    /// answer may come before the body ends; the connection then closes after it, since the rest
    /// of the body is not a request of its own.
    struct ReceivingStreamed {
        var number: Int
        var head: RequestHead
        var request: HTTPRequest
        var startedAt: UInt64
        var bodyReceived: Int
        var peer: Peer
        /// The handler has more than its window unconsumed: nothing is read until it drains, and
        /// the body-read deadline does not run (the wait is the handler's, not the client's).
        var paused: Bool
        /// `Expect: 100-continue` with no body byte seen yet: 100 goes out when the handler first
        /// reads (RFC 9110 §10.1.1), so a handler answering at once spares the client the upload.
        var continuePending: Bool
    }

    /// A dispatched request whose handler has not answered yet. Later pipelined requests wait in
    /// the inbound buffer, so answers stay in order.
    struct Awaiting {
        var number: Int
        var head: RequestHead
        var request: HTTPRequest
        var startedAt: UInt64
        var peer: Peer
    }

    /// A streamed response in progress.
    struct Streaming {
        var number: Int
        /// HTTP/1.1 gets chunked coding; HTTP/1.0 has none, so its body ends with the connection.
        /// A body of known length is neither: its head carries `Content-Length`.
        var chunked: Bool
        /// Body bytes the head's `Content-Length` still promises; nil when the body has no length.
        var remaining: Int?
        var keepAlive: Bool
        var request: HTTPRequest
        var status: HTTPStatus
        var startedAt: UInt64
        var bytesSent: Int
        /// The producer's suspended `write` while the queue is above the window; resumed once it
        /// drains.
        var parked: ParkedProducer?
    }

    /// A stream producer's suspended `write`. A class because `CheckedContinuation` is a
    /// resilient type: held directly, it would give `State` and `Action` a layout known only at
    /// run time, and every transition would go through value witnesses. Allocated only when a
    /// producer outruns its client.
    final class ParkedProducer {
        let continuation: CheckedContinuation<Void, any Error>

        init(_ continuation: CheckedContinuation<Void, any Error>) {
            self.continuation = continuation
        }
    }

    enum State {
        /// TLS handshake in progress.
        case handshaking
        /// Between requests: no byte of the next one has been looked at.
        case idle(Peer)
        /// Bytes of a request head arrived at `startedAt`; the head is not complete.
        case receivingHead(startedAt: UInt64, Peer)
        case receivingBody(Receiving)
        case dispatching(Dispatching)
        case receivingStreamedBody(ReceivingStreamed)
        case awaitingResponse(Awaiting)
        case streaming(Streaming)
        /// A streamed request was answered before its body ended, and what is left of the body
        /// is small: it is read and thrown away, then the connection serves its next request.
        /// `since`: the body's last progress when the answer came; the rest must arrive within
        /// `bodyTimeout` of it, so a trickle cannot hold the connection.
        case discardingBody(Peer, since: UInt64)
        /// The final response is queued (it carries `Connection: close`); once written, linger
        /// or close.
        case closingAfterWrite(Peer)
        /// The final response is out and our side is shut down; reading and discarding until the
        /// client closes or `deadline`, so unread request bytes don't turn our close into a RST
        /// that destroys the response in the client's receive buffer (RFC 9112 §9.6).
        case lingering(deadline: UInt64)
        case closed
    }

    /// What the connection is doing, coarse enough for its event dispatch and epoll interest.
    enum Activity: Equatable {
        case handshaking
        /// Parsing requests: read and parse.
        case reading
        /// A handler or a stream owns the connection: read nothing (pipelined requests wait).
        case responding
        /// The final response is being written: read (to see a FIN) but parse nothing.
        case finishing
        case lingering
        case closed
    }

    /// What a plain (non-streamed) response needs to be written and logged.
    struct Reply {
        var number: Int
        var request: HTTPRequest
        var startedAt: UInt64
        var keepAlive: Bool
    }

    /// What the error answer to a bad or timed-out request (or a refused connection) needs.
    struct Rejection {
        /// Nil when the head was never complete.
        var head: RequestHead?
        var startedAt: UInt64
    }

    enum Action {
        case nothing
        /// Read from the socket, then parse.
        case readMore
        /// Answer 503 (the connection is past a limit) and close.
        case refuse
        /// Send `100 Continue` (RFC 9110 §10.1.1).
        case writeContinue
        /// Route and run the complete request `number`; answer with `requestRouted`.
        case dispatch(RequestHead, body: [UInt8], number: Int)
        /// Queue the response; `reply.keepAlive` false means it is the last one.
        case writeResponse(Reply)
        /// Queue a streamed response's head and start its producer.
        case startStream(Reply, chunked: Bool)
        /// Queue the chunk just offered (framed when `chunked`).
        case writeChunk(chunked: Bool)
        /// The chunk just offered belongs to no stream in progress: fail its `write`.
        case rejectChunk
        /// Queue the stream's end and log it; the connection carries on or closes as the state says.
        case endStream(Streaming)
        /// The producer failed after the head went out: log, then close (the only way left to tell
        /// the client its body is incomplete).
        case abortStream(Streaming)
        case resumeProducer(ParkedProducer)
        /// Resume the parked producer with `HTTPBodyWriter.ConnectionClosed`.
        case failProducer(ParkedProducer)
        /// Queue an error answer with `Connection: close`.
        case writeRejection(Rejection)
        /// A deadline of the request being received passed: answer 408 with this reason.
        case timeOut(String)
        /// Shut our side down and start discarding input.
        case linger
        case close
    }

    /// The most body bytes still to come that an early answer reads and throws away to keep the
    /// connection; with more left it closes instead.
    static let maxDiscardedBody = 256 * 1024

    /// How long a lingering close waits for the client's FIN.
    static let lingerDuration: UInt64 = 2_000_000_000

    private(set) var state: State
    private let limits: HTTPLimits
    /// The connection is past a limit: its only answer is the 503.
    private let refused: Bool
    /// Requests dispatched so far; also the number of the latest one, so a late answer for an
    /// earlier one is recognised and ignored.
    private(set) var requestCount = 0
    /// Last read progress (idle, body-pause and handshake deadlines).
    private var lastRead: UInt64
    /// Last write progress (the write deadline while output is queued).
    private var lastWrite: UInt64

    init(limits: HTTPLimits, secure: Bool, refused: Bool, now: UInt64) {
        self.limits = limits
        self.refused = refused
        state = secure ? .handshaking : .idle(.open)
        lastRead = now
        lastWrite = now
    }

    var activity: Activity {
        switch state {
        case .handshaking: .handshaking
        case .idle, .receivingHead, .receivingBody, .receivingStreamedBody, .discardingBody: .reading
        case .dispatching, .awaitingResponse, .streaming: .responding
        case .closingAfterWrite: .finishing
        case .lingering: .lingering
        case .closed: .closed
        }
    }

    var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// The request whose answer is still owed: its handler has not answered, or its streamed
    /// body has not ended. What the drain deadline cuts when it closes the connection.
    var unansweredRequest: HTTPRequest? {
        switch state {
        case .awaitingResponse(let awaiting): return awaiting.request
        case .receivingStreamedBody(let receiving): return receiving.request
        case .streaming(let streaming): return streaming.request
        default: return nil
        }
    }

    /// The request `number` if it is the one awaiting its handler's answer.
    func awaitedRequest(_ number: Int) -> HTTPRequest? {
        switch state {
        case .awaitingResponse(let awaiting) where awaiting.number == number: return awaiting.request
        case .receivingStreamedBody(let receiving) where receiving.number == number: return receiving.request
        default: return nil
        }
    }

    /// A streamed request's body is arriving (its handler already runs).
    var isReceivingStreamedBody: Bool {
        if case .receivingStreamedBody = state { return true }
        return false
    }

    /// The rest of an answered request's body is being read and thrown away.
    var isDiscardingBody: Bool {
        if case .discardingBody = state { return true }
        return false
    }

    /// A streamed body's handler is behind by more than its window: read nothing for now.
    var isBodyPaused: Bool {
        if case .receivingStreamedBody(let receiving) = state { return receiving.paused }
        return false
    }

    // MARK: Connection setup

    /// Registered with the loop: a refused plain connection answers at once.
    mutating func registered() -> Action {
        switch state {
        case .handshaking: return .nothing
        case .idle: return refused ? .refuse : .nothing
        default: preconditionFailure("registered in \(state)")
        }
    }

    mutating func handshakeCompleted(now: UInt64) -> Action {
        guard case .handshaking = state else { preconditionFailure("handshake completed in \(state)") }
        state = .idle(.open)
        lastRead = now
        return refused ? .refuse : .readMore
    }

    /// Plain HTTP arrived where a TLS handshake was due: the connection goes on unencrypted just
    /// long enough to be rejected (`rejected()` next).
    mutating func plaintextInsteadOfHandshake(now: UInt64) {
        guard case .handshaking = state else { preconditionFailure("plain HTTP seen in \(state)") }
        state = .idle(.open)
        lastRead = now
    }

    // MARK: Input

    /// Bytes arrived from the socket.
    mutating func didRead(now: UInt64) {
        lastRead = now
    }

    /// The client sent FIN.
    mutating func peerClosed() -> Action {
        switch state {
        case .idle: state = .idle(.halfClosed)
        case .receivingHead(let startedAt, _): state = .receivingHead(startedAt: startedAt, .halfClosed)
        case .receivingBody(var receiving):
            receiving.peer = .halfClosed
            state = .receivingBody(receiving)
        case .receivingStreamedBody(var receiving):
            receiving.peer = .halfClosed
            state = .receivingStreamedBody(receiving)
        case .discardingBody(_, let since): state = .discardingBody(.halfClosed, since: since)
        case .closingAfterWrite: state = .closingAfterWrite(.halfClosed)
        case .lingering: return .close
        default: preconditionFailure("peer closed while not reading, in \(state)")
        }
        return .nothing
    }

    /// Bytes of a request are buffered and about to be parsed: the head deadline starts with the
    /// request's first byte, and trickling doesn't extend it.
    mutating func requestBytesBuffered(now: UInt64) {
        switch state {
        case .idle(let peer): state = .receivingHead(startedAt: now, peer)
        case .receivingHead, .receivingBody, .receivingStreamedBody, .discardingBody: break
        default: preconditionFailure("request bytes parsed in \(state)")
        }
    }

    /// The parser produced a head; it passed every check, or the parser would have thrown.
    mutating func headReceived(_ head: RequestHead, now: UInt64, bodyAlreadyBuffered: Bool) -> Action {
        let (startedAt, peer) = headStarted(now: now)
        receivedBody = []
        // Reserve for the announced body, but not blindly: a client announcing 8 MiB and sending
        // nothing must not make every connection hold 8 MiB.
        if case .contentLength(let length) = head.framing { receivedBody.reserveCapacity(min(length, 256 * 1024)) }
        state = .receivingBody(
            Receiving(
                head: head, startedAt: startedAt, bodyStartedAt: now, bodyReceived: 0, peer: peer))
        // RFC 9110 §10.1.1: 100 Continue only once the head passed every check and only if the
        // client is not already sending the body.
        return head.expectsContinue && !bodyAlreadyBuffered ? .writeContinue : .nothing
    }

    /// When the head now received began (its first byte, or now when it came in one read) and
    /// from whom.
    private func headStarted(now: UInt64) -> (startedAt: UInt64, peer: Peer) {
        switch state {
        case .idle(let peer): (now, peer)
        case .receivingHead(let startedAt, let peer): (startedAt, peer)
        default: preconditionFailure("head received in \(state)")
        }
    }

    /// A head whose route streams its body (and which has one): the request is dispatched now,
    /// before any body byte, and routed with `requestRouted`.
    mutating func streamedHeadReceived(_ head: RequestHead, now: UInt64, bodyAlreadyBuffered: Bool) -> Action {
        let (startedAt, peer) = headStarted(now: now)
        requestCount += 1
        state = .dispatching(
            Dispatching(
                number: requestCount, head: head, startedAt: startedAt, peer: peer,
                streamedBody: StreamedBodyStart(
                    bodyStartedAt: now, continuePending: head.expectsContinue && !bodyAlreadyBuffered)))
        return .dispatch(head, body: [], number: requestCount)
    }

    /// Bytes of a streamed body were parsed (and handed to the handler's queue).
    mutating func streamedBodyReceived(_ count: Int) {
        guard case .receivingStreamedBody(var receiving) = state else { preconditionFailure("streamed body bytes in \(state)") }
        receiving.bodyReceived += count
        // The client sends without waiting for 100: no point in sending it any more.
        receiving.continuePending = false
        state = .receivingStreamedBody(receiving)
    }

    /// The handler's queue passed its window.
    mutating func streamedBodyPaused() {
        guard case .receivingStreamedBody(var receiving) = state else { preconditionFailure("body paused in \(state)") }
        receiving.paused = true
        state = .receivingStreamedBody(receiving)
    }

    /// The handler of request `number` took its queue below the window; true when reading
    /// resumes. The body-read deadline counts from now: the pause was not the client's.
    mutating func streamedBodyDrained(number: Int, now: UInt64) -> Bool {
        guard case .receivingStreamedBody(var receiving) = state, receiving.number == number, receiving.paused else {
            return false
        }
        receiving.paused = false
        state = .receivingStreamedBody(receiving)
        lastRead = now
        return true
    }

    /// The handler of request `number` asked for its first chunk.
    mutating func streamedBodyStarted(number: Int) -> Action {
        guard case .receivingStreamedBody(var receiving) = state, receiving.number == number,
            receiving.continuePending
        else { return .nothing }
        receiving.continuePending = false
        state = .receivingStreamedBody(receiving)
        return .writeContinue
    }

    mutating func bodyReceived(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard case .receivingBody(var receiving) = state else { preconditionFailure("body bytes in \(state)") }
        receivedBody.append(contentsOf: bytes)
        receiving.bodyReceived += bytes.count
        state = .receivingBody(receiving)
    }

    /// The parser reached the request's end.
    mutating func requestComplete() -> Action {
        if case .discardingBody(let peer, _) = state {
            state = .idle(peer)
            return .nothing
        }
        if case .receivingStreamedBody(let receiving) = state {
            // Dispatched at its head: now it only awaits its handler's answer.
            state = .awaitingResponse(
                Awaiting(
                    number: receiving.number, head: receiving.head, request: receiving.request,
                    startedAt: receiving.startedAt, peer: receiving.peer))
            return .nothing
        }
        guard case .receivingBody(let receiving) = state else { preconditionFailure("request end in \(state)") }
        requestCount += 1
        state = .dispatching(
            Dispatching(
                number: requestCount, head: receiving.head, startedAt: receiving.startedAt, peer: receiving.peer))
        let body = receivedBody
        receivedBody = []
        return .dispatch(receiving.head, body: body, number: requestCount)
    }

    /// `Connection` built and routed the request it was handed by `.dispatch`.
    mutating func requestRouted(_ request: HTTPRequest) {
        guard case .dispatching(let dispatching) = state else { preconditionFailure("request routed in \(state)") }
        if let streamed = dispatching.streamedBody {
            state = .receivingStreamedBody(
                ReceivingStreamed(
                    number: dispatching.number, head: dispatching.head, request: request, startedAt: dispatching.startedAt,
                    bodyReceived: 0, peer: dispatching.peer, paused: false, continuePending: streamed.continuePending))
            lastRead = streamed.bodyStartedAt
            return
        }
        state = .awaitingResponse(
            Awaiting(
                number: dispatching.number, head: dispatching.head, request: request,
                startedAt: dispatching.startedAt, peer: dispatching.peer))
    }

    /// The parser needs more bytes than are buffered.
    mutating func inputExhausted(bufferEmpty: Bool, parserIdle: Bool, outputPending: Bool) -> Action {
        let peer: Peer
        switch state {
        case .idle(let idlePeer): peer = idlePeer
        case .receivingHead(_, let headPeer):
            peer = headPeer
            // Only whitespace between requests was consumed: still idle.
            if bufferEmpty && parserIdle { state = .idle(headPeer) }
        case .receivingBody(let receiving): peer = receiving.peer
        case .receivingStreamedBody(let receiving): peer = receiving.peer
        case .discardingBody(let discardingPeer, _): peer = discardingPeer
        default: preconditionFailure("input exhausted in \(state)")
        }
        // After the client's FIN nothing more can arrive: a half-received request can never
        // complete. Close once what was answered is written.
        return peer == .halfClosed && !outputPending ? .close : .nothing
    }

    // MARK: Responses

    /// The handler of request `number` answered. `handlerCloses`: the response says
    /// `Connection: close`; `serverClosing`: the server is past its drain grace; `streamLength`:
    /// a streamed body's length, when its head announces one.
    mutating func responseReady(
        number: Int, status: HTTPStatus, handlerCloses: Bool, hasStream: Bool, serverClosing: Bool, streamLength: Int? = nil
    ) -> Action {
        let awaiting: Awaiting
        var bodyUnread = false
        var discardable = false
        switch state {
        case .awaitingResponse(let waiting) where waiting.number == number:
            awaiting = waiting
        case .receivingStreamedBody(let receiving) where receiving.number == number:
            // Answered before its body ended: the rest of the body must never be parsed as
            // requests. A small rest that the client is committed to sending (it did not wait
            // for a 100 it never got) is read and thrown away; otherwise this answer is the
            // connection's last (RFC 9110 §10.1.1: say which, with `Connection: close`).
            awaiting = Awaiting(
                number: number, head: receiving.head, request: receiving.request,
                startedAt: receiving.startedAt, peer: receiving.peer)
            bodyUnread = true
            // Paused, the handler held the connection back: its read deadline says nothing now.
            if case .contentLength(let length) = receiving.head.framing, !receiving.continuePending, !receiving.paused {
                discardable = length - receiving.bodyReceived <= Self.maxDiscardedBody
            }
        default:
            return .nothing  // a late answer for a request the connection no longer waits for
        }
        var keepAlive =
            awaiting.head.keepAlive && !handlerCloses && !serverClosing
            && (!bodyUnread || (discardable && !hasStream))
            && requestCount < limits.maxRequestsPerConnection && awaiting.peer == .open
        if hasStream && awaiting.head.method != .head {
            // A known length frames the body for either version; without one, HTTP/1.0 has no
            // chunked coding: the body ends where the connection does.
            let chunked = streamLength == nil && awaiting.head.version == .http1_1
            keepAlive = keepAlive && (chunked || streamLength != nil)
            state = .streaming(
                Streaming(
                    number: number, chunked: chunked, remaining: streamLength, keepAlive: keepAlive, request: awaiting.request,
                    status: status, startedAt: awaiting.startedAt, bytesSent: 0, parked: nil))
            return .startStream(
                Reply(number: number, request: awaiting.request, startedAt: awaiting.startedAt, keepAlive: keepAlive),
                chunked: chunked)
        }
        if keepAlive && bodyUnread {
            state = .discardingBody(awaiting.peer, since: lastRead)
        } else {
            state = keepAlive ? .idle(awaiting.peer) : .closingAfterWrite(awaiting.peer)
        }
        return .writeResponse(
            Reply(
                number: number, request: awaiting.request, startedAt: awaiting.startedAt, keepAlive: keepAlive))
    }

    /// The producer of stream `number` offers a chunk of `bytes`. One past the length its head
    /// announced is refused: its `write` throws, and the stream ends short, which closes.
    mutating func streamChunk(number: Int, bytes: Int) -> Action {
        guard case .streaming(var streaming) = state, streaming.number == number else { return .rejectChunk }
        precondition(streaming.parked == nil, "a stream producer wrote again before its previous write returned")
        if let remaining = streaming.remaining {
            guard bytes <= remaining else { return .rejectChunk }
            streaming.remaining = remaining - bytes
            state = .streaming(streaming)
        }
        return .writeChunk(chunked: streaming.chunked)
    }

    /// The queue is above the stream window after a chunk: its producer waits for the drain.
    mutating func producerParked(_ parked: ParkedProducer) {
        guard case .streaming(var streaming) = state else { preconditionFailure("producer parked in \(state)") }
        streaming.parked = parked
        state = .streaming(streaming)
    }

    /// Bytes of the streamed response (its head or a framed chunk) were queued.
    mutating func streamQueued(bytes: Int) {
        guard case .streaming(var streaming) = state else { preconditionFailure("stream bytes queued in \(state)") }
        streaming.bytesSent += bytes
        state = .streaming(streaming)
    }

    mutating func streamEnded(number: Int) -> Action {
        guard case .streaming(let streaming) = state, streaming.number == number else { return .nothing }
        // Fewer bytes than the head's Content-Length: only closing tells the client (RFC 9112 §6.3).
        if let remaining = streaming.remaining, remaining > 0 { return .abortStream(streaming) }
        state = streaming.keepAlive ? .idle(.open) : .closingAfterWrite(.open)
        return .endStream(streaming)
    }

    mutating func streamFailed(number: Int) -> Action {
        guard case .streaming(let streaming) = state, streaming.number == number else { return .nothing }
        return .abortStream(streaming)
    }

    /// A framing error, a timeout of the request being received, or a refusal: the error answer
    /// is the last thing this connection sends, since nothing after it can be trusted to be a
    /// request of its own.
    mutating func rejected() -> Action {
        switch state {
        case .idle(let peer):
            state = .closingAfterWrite(peer)
            return .writeRejection(Rejection(head: nil, startedAt: lastRead))
        case .receivingHead(let startedAt, let peer):
            state = .closingAfterWrite(peer)
            return .writeRejection(Rejection(head: nil, startedAt: startedAt))
        case .receivingBody(let receiving):
            state = .closingAfterWrite(receiving.peer)
            // Not held while the rejection waits for a client that may never read it.
            receivedBody = []
            return .writeRejection(Rejection(head: receiving.head, startedAt: receiving.startedAt))
        case .receivingStreamedBody(let receiving):
            // The handler's answer, when it comes, finds the connection moved on and is dropped.
            state = .closingAfterWrite(receiving.peer)
            return .writeRejection(Rejection(head: receiving.head, startedAt: receiving.startedAt))
        default:
            preconditionFailure("request rejected in \(state)")
        }
    }

    // MARK: Output

    /// Some queued bytes were written.
    mutating func didWrite(now: UInt64) {
        lastWrite = now
    }

    /// Output was queued while nothing was: the write deadline counts from now. It measures time
    /// without progress while output waits, not the age of the last write before it.
    mutating func outputStarted(now: UInt64) {
        lastWrite = now
    }

    /// Everything queued is written.
    mutating func outputDrained(now: UInt64) -> Action {
        switch state {
        case .streaming(var streaming):
            guard let parked = streaming.parked else { return .nothing }
            streaming.parked = nil
            state = .streaming(streaming)
            return .resumeProducer(parked)
        case .closingAfterWrite(let peer):
            if peer == .halfClosed { return .close }
            state = .lingering(deadline: now + Self.lingerDuration)
            return .linger
        default:
            return .nothing
        }
    }

    // MARK: Timers and shutdown

    /// The loop's tick. `outputPending`: responses are queued but not yet written.
    mutating func timerFired(now: UInt64, outputPending: Bool) -> Action {
        let writeStalled = outputPending && now &- lastWrite > limits.writeTimeout.nanoseconds
        switch state {
        case .closed:
            return .nothing
        case .handshaking:
            return now &- lastRead > limits.headerTimeout.nanoseconds ? .close : .nothing
        case .lingering(let deadline):
            return now > deadline ? .close : .nothing
        case .dispatching, .awaitingResponse, .streaming, .closingAfterWrite:
            return writeStalled ? .close : .nothing
        case .discardingBody(_, let since):
            // The request was answered: a stall now ends the connection, with no second answer.
            if outputPending && writeStalled { return .close }
            let stalled = now &- lastRead > limits.bodyReadTimeout.nanoseconds
            return stalled || now &- since > limits.bodyTimeout.nanoseconds ? .close : .nothing
        case .idle, .receivingHead, .receivingBody, .receivingStreamedBody:
            if outputPending { return writeStalled ? .close : .nothing }
            switch state {
            case .receivingStreamedBody(let receiving):
                // Only time without progress: a large upload may take as long as it keeps moving.
                // Paused, the wait is the handler's.
                if !receiving.paused && now &- lastRead > limits.bodyReadTimeout.nanoseconds {
                    return .timeOut("no body bytes for \(limits.bodyReadTimeout)")
                }
                return .nothing
            case .receivingBody(let receiving):
                if now &- lastRead > limits.bodyReadTimeout.nanoseconds {
                    return .timeOut("no body bytes for \(limits.bodyReadTimeout)")
                }
                if now &- receiving.bodyStartedAt > bodyAllowance(received: receiving.bodyReceived) {
                    return .timeOut(
                        "request body slower than \(limits.bodyMinimumRate) bytes/s: \(receiving.bodyReceived) bytes in "
                            + "\((now &- receiving.bodyStartedAt) / 1_000_000) ms (at most \(limits.bodyMaximumTimeout) in all)")
                }
                return .nothing
            case .receivingHead(let startedAt, _):
                // Measured from the request's first byte, not the last: trickling doesn't extend it.
                return now &- startedAt > limits.headerTimeout.nanoseconds
                    ? .timeOut("request head not complete within \(limits.headerTimeout)") : .nothing
            default:
                return now &- lastRead > limits.idleTimeout.nanoseconds ? .close : .nothing
            }
        }
    }

    /// How long the current body may take so far: the first window plus one second per
    /// `bodyMinimumRate` bytes received, capped (docs/architecture.md#framing-and-limits, as Apache mod_reqtimeout). A trickle
    /// of a byte every few seconds earns a few milliseconds and is cut after the first window.
    private func bodyAllowance(received: Int) -> UInt64 {
        let earned =
            limits.bodyMinimumRate > 0
            ? min(UInt64(received), 1 << 33) * 1_000_000_000 / UInt64(limits.bodyMinimumRate)
            : UInt64.max / 2
        return min(limits.bodyMaximumTimeout.nanoseconds, limits.bodyTimeout.nanoseconds &+ earned)
    }

    /// The server drains: an idle connection closes now; a busy one finishes its current request,
    /// whose answer carries `Connection: close` (`responseReady(serverClosing: true)`).
    mutating func drainStarted(bufferEmpty: Bool, outputPending: Bool) -> Action {
        if case .idle = state, bufferEmpty && !outputPending { return .close }
        return .nothing
    }

    /// The connection closes (error, timeout, drain, or the end of a lingering close).
    mutating func close() -> Action {
        let previous = state
        state = .closed
        if case .streaming(let streaming) = previous, let parked = streaming.parked {
            return .failProducer(parked)
        }
        return .nothing
    }
}
