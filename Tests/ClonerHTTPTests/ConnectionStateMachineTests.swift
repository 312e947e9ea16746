import Testing
@testable import ClonerHTTP

/// Drives `ConnectionStateMachine` with sequences of events, as `Connection` would, and asserts
/// the actions: the lifecycle decisions without a socket in the way. (The end-to-end suites check
/// that `Connection` executes them.)
@Suite struct ConnectionStateMachineTests {
    private static let second: UInt64 = 1_000_000_000

    private static var limits: HTTPLimits {
        var limits = HTTPLimits()
        limits.headerTimeout = .seconds(10)
        limits.bodyReadTimeout = .seconds(30)
        limits.bodyTimeout = .seconds(20)
        limits.bodyMinimumRate = 500
        limits.bodyMaximumTimeout = .seconds(120)
        limits.writeTimeout = .seconds(30)
        limits.idleTimeout = .seconds(75)
        limits.maxRequestsPerConnection = 1000
        return limits
    }

    private static func head(
        _ method: HTTPMethod = .get, _ target: String = "/", version: HTTPVersion = .http1_1,
        keepAlive: Bool = true, expectsContinue: Bool = false, contentLength: Int? = nil
    ) -> RequestHead {
        RequestHead(
            method: method, target: target, version: version, headers: [:],
            framing: contentLength.map { .contentLength($0) } ?? .none, keepAlive: keepAlive, expectsContinue: expectsContinue)
    }

    /// A short name for an action, with what the assertions care about.
    private static func name(_ action: ConnectionStateMachine.Action) -> String {
        switch action {
        case .nothing: "nothing"
        case .readMore: "readMore"
        case .refuse: "refuse"
        case .writeContinue: "writeContinue"
        case .dispatch(let head, let body, let number): "dispatch \(number) \(head.target) \(body.count)B"
        case .writeResponse(let reply): "write \(reply.number) \(reply.request.target) \(reply.keepAlive ? "keep-alive" : "close")"
        case .startStream(let reply, let chunked):
            "stream \(reply.number) \(chunked ? "chunked" : "raw") \(reply.keepAlive ? "keep-alive" : "close")"
        case .writeChunk(let chunked): "chunk \(chunked ? "chunked" : "raw")"
        case .rejectChunk: "rejectChunk"
        case .endStream(let stream): "end \(stream.number) \(stream.keepAlive ? "keep-alive" : "close")"
        case .abortStream(let stream): "abort \(stream.number)"
        case .resumeProducer: "resumeProducer"
        case .failProducer: "failProducer"
        case .writeRejection(let rejection): "reject \(rejection.head?.target ?? "-")"
        case .timeOut: "timeOut"
        case .linger: "linger"
        case .close: "close"
        }
    }

    /// A plain connection at time 0, optionally on TLS or refused.
    private static func machine(secure: Bool = false, refused: Bool = false, limits: HTTPLimits = limits) -> ConnectionStateMachine {
        ConnectionStateMachine(limits: limits, secure: secure, refused: refused, now: 0)
    }

    /// Receives a whole request as `process` feeds it and routes it: the actions in order.
    @discardableResult
    private static func receive(
        _ head: RequestHead, body: [UInt8] = [], bodyAlreadyBuffered: Bool = false, at now: UInt64 = 0,
        into machine: inout ConnectionStateMachine
    ) -> [String] {
        machine.requestBytesBuffered(now: now)
        var actions = [name(machine.headReceived(head, now: now, bodyAlreadyBuffered: bodyAlreadyBuffered))]
        body.withUnsafeBufferPointer { machine.bodyReceived($0) }
        let dispatch = machine.requestComplete()
        actions.append(name(dispatch))
        if case .dispatch(let head, let body, _) = dispatch {
            machine.requestRouted(HTTPRequest(method: head.method, target: head.target, version: head.version, body: body))
        }
        return actions
    }

    private static func answer(
        _ number: Int, closes: Bool = false, stream: Bool = false, serverClosing: Bool = false, streamLength: Int? = nil,
        _ machine: inout ConnectionStateMachine
    ) -> String {
        name(
            machine.responseReady(
                number: number, status: .ok, handlerCloses: closes, hasStream: stream, serverClosing: serverClosing,
                streamLength: streamLength))
    }

    // MARK: Pipelining and deferred answers

    @Test func pipelinedRequestsAreAnsweredInOrder() {
        var machine = Self.machine()
        #expect(Self.receive(Self.head(.get, "/a"), into: &machine) == ["nothing", "dispatch 1 /a 0B"])
        // A deferred handler owns the connection: the next pipelined request stays unparsed.
        #expect(machine.activity == .responding)
        #expect(Self.answer(2, &machine) == "nothing")  // no request 2 yet: not answerable
        #expect(Self.answer(1, &machine) == "write 1 /a keep-alive")
        #expect(machine.activity == .reading)
        #expect(Self.receive(Self.head(.get, "/b"), into: &machine) == ["nothing", "dispatch 2 /b 0B"])
        #expect(Self.answer(2, &machine) == "write 2 /b keep-alive")
        #expect(machine.requestCount == 2)
    }

    @Test func aSecondRequestWaitsWhileADeferredResponseIsPendingAndALateAnswerIsIgnored() {
        var machine = Self.machine()
        Self.receive(Self.head(.post, "/slow", contentLength: 3), body: Array("abc".utf8), into: &machine)
        // The second request's bytes are buffered, but nothing reads or parses them while
        // request 1 waits; timers only watch the output.
        #expect(machine.activity == .responding)
        #expect(machine.awaitedRequest(1)?.body == Array("abc".utf8))
        #expect(Self.name(machine.timerFired(now: 100 * Self.second, outputPending: false)) == "nothing")
        #expect(Self.name(machine.drainStarted(bufferEmpty: false, outputPending: false)) == "nothing")
        #expect(Self.answer(1, &machine) == "write 1 /slow keep-alive")
        // Now the buffered request is parsed and dispatched.
        #expect(Self.receive(Self.head(.get, "/next"), into: &machine) == ["nothing", "dispatch 2 /next 0B"])
        // A second answer for request 1 (a handler answering twice) changes nothing.
        #expect(Self.answer(1, &machine) == "nothing")
        #expect(machine.awaitedRequest(1) == nil)
        #expect(machine.awaitedRequest(2)?.target == "/next")
        #expect(Self.answer(2, &machine) == "write 2 /next keep-alive")
    }

    @Test func theLastRequestAllowedPerConnectionClosesIt() {
        var limits = Self.limits
        limits.maxRequestsPerConnection = 2
        var machine = Self.machine(limits: limits)
        Self.receive(Self.head(), into: &machine)
        #expect(Self.answer(1, &machine) == "write 1 / keep-alive")
        Self.receive(Self.head(), into: &machine)
        #expect(Self.answer(2, &machine) == "write 2 / close")
        #expect(machine.activity == .finishing)
    }

    // MARK: 100-continue

    @Test func continueOnlyAfterTheHeadPassedAndOnlyIfTheBodyIsNotAlreadyComing() {
        var machine = Self.machine()
        machine.requestBytesBuffered(now: 0)
        // Head bytes alone never produce a 100: only a parsed (hence checked) head does.
        #expect(Self.name(machine.inputExhausted(bufferEmpty: true, parserIdle: false, outputPending: false)) == "nothing")
        let waiting = Self.head(.post, "/x", expectsContinue: true, contentLength: 5)
        #expect(Self.name(machine.headReceived(waiting, now: 0, bodyAlreadyBuffered: false)) == "writeContinue")

        var eager = Self.machine()
        #expect(
            Self.receive(waiting, body: Array("hello".utf8), bodyAlreadyBuffered: true, into: &eager)
                == ["nothing", "dispatch 1 /x 5B"])

        var plain = Self.machine()
        #expect(
            Self.receive(Self.head(.post, "/x", contentLength: 5), body: Array("hello".utf8), into: &plain)
                == ["nothing", "dispatch 1 /x 5B"])
    }

    @Test func aHeadThatFailsItsChecksIsRejectedWithoutContinue() {
        var machine = Self.machine()
        machine.requestBytesBuffered(now: 0)
        // The parser threw (say, a body past the limit): the machine never saw a head.
        #expect(Self.name(machine.rejected()) == "reject -")
        #expect(machine.activity == .finishing)
        #expect(Self.name(machine.outputDrained(now: 0)) == "linger")
    }

    // MARK: Closing after a response

    @Test func connectionCloseFromTheClientOrTheHandlerEndsWithALingeringClose() {
        var machine = Self.machine()
        Self.receive(Self.head(keepAlive: false), into: &machine)
        #expect(Self.answer(1, &machine) == "write 1 / close")
        #expect(machine.activity == .finishing)
        #expect(Self.name(machine.outputDrained(now: 5 * Self.second)) == "linger")
        #expect(machine.activity == .lingering)
        // Lingering ends with the client's FIN or after its deadline.
        var fin = machine
        #expect(Self.name(fin.peerClosed()) == "close")
        #expect(Self.name(machine.timerFired(now: 6 * Self.second, outputPending: false)) == "nothing")
        #expect(Self.name(machine.timerFired(now: 8 * Self.second, outputPending: false)) == "close")

        var handlerCloses = Self.machine()
        Self.receive(Self.head(), into: &handlerCloses)
        #expect(Self.answer(1, closes: true, &handlerCloses) == "write 1 / close")
    }

    @Test func http10ClosesUnlessKeepAliveAndStreamsWithoutChunking() {
        var machine = Self.machine()
        Self.receive(Self.head(version: .http1_0, keepAlive: false), into: &machine)
        #expect(Self.answer(1, &machine) == "write 1 / close")

        var keepAlive = Self.machine()
        Self.receive(Self.head(version: .http1_0, keepAlive: true), into: &keepAlive)
        #expect(Self.answer(1, &keepAlive) == "write 1 / keep-alive")
        // HTTP/1.0 has no chunked coding: a streamed body ends with the connection.
        Self.receive(Self.head(version: .http1_0, keepAlive: true), into: &keepAlive)
        #expect(Self.answer(2, stream: true, &keepAlive) == "stream 2 raw close")
        #expect(Self.name(keepAlive.streamEnded(number: 2)) == "end 2 close")
        #expect(keepAlive.activity == .finishing)

        var http11 = Self.machine()
        Self.receive(Self.head(), into: &http11)
        #expect(Self.answer(1, stream: true, &http11) == "stream 1 chunked keep-alive")
        #expect(Self.name(http11.streamEnded(number: 1)) == "end 1 keep-alive")
        #expect(http11.activity == .reading)
    }

    @Test func aStreamOfKnownLengthGoesUnframedAndClosesWhenItEndsShortOrRunsOver() {
        // Its Content-Length frames it for HTTP/1.0 too: the connection can stay open.
        var http10 = Self.machine()
        Self.receive(Self.head(version: .http1_0, keepAlive: true), into: &http10)
        #expect(Self.answer(1, stream: true, streamLength: 10, &http10) == "stream 1 raw keep-alive")
        #expect(Self.name(http10.streamChunk(number: 1, bytes: 10)) == "chunk raw")
        #expect(Self.name(http10.streamEnded(number: 1)) == "end 1 keep-alive")
        #expect(http10.activity == .reading)

        var short = Self.machine()
        Self.receive(Self.head(), into: &short)
        #expect(Self.answer(1, stream: true, streamLength: 10, &short) == "stream 1 raw keep-alive")
        #expect(Self.name(short.streamChunk(number: 1, bytes: 4)) == "chunk raw")
        #expect(Self.name(short.streamEnded(number: 1)) == "abort 1", "6 bytes short of its Content-Length")

        var over = Self.machine()
        Self.receive(Self.head(), into: &over)
        _ = Self.answer(1, stream: true, streamLength: 10, &over)
        #expect(Self.name(over.streamChunk(number: 1, bytes: 6)) == "chunk raw")
        #expect(Self.name(over.streamChunk(number: 1, bytes: 5)) == "rejectChunk", "one byte past its Content-Length")
        #expect(Self.name(over.streamChunk(number: 1, bytes: 4)) == "chunk raw")
        #expect(Self.name(over.streamEnded(number: 1)) == "end 1 keep-alive")
    }

    @Test func aHeadRequestForAStreamGetsAPlainResponse() {
        var machine = Self.machine()
        Self.receive(Self.head(.head), into: &machine)
        #expect(Self.answer(1, stream: true, &machine) == "write 1 / keep-alive")
    }

    @Test func afterTheClientsFINTheAnswerClosesWithoutLingering() {
        // Idle: close once the answers already queued are written.
        var idle = Self.machine()
        #expect(Self.name(idle.peerClosed()) == "nothing")
        #expect(Self.name(idle.inputExhausted(bufferEmpty: true, parserIdle: true, outputPending: true)) == "nothing")
        #expect(Self.name(idle.inputExhausted(bufferEmpty: true, parserIdle: true, outputPending: false)) == "close")

        var partial = Self.machine()
        partial.requestBytesBuffered(now: 0)
        _ = partial.headReceived(Self.head(.post, "/x", contentLength: 10), now: 0, bodyAlreadyBuffered: true)
        _ = partial.peerClosed()
        // A half-received request can never complete.
        #expect(Self.name(partial.inputExhausted(bufferEmpty: true, parserIdle: false, outputPending: false)) == "close")

        // A FIN read while the request was being received: its answer says close, and no
        // lingering follows since the client already finished sending.
        var receiving = Self.machine()
        receiving.requestBytesBuffered(now: 0)
        _ = receiving.headReceived(Self.head(.post, "/x", contentLength: 1), now: 0, bodyAlreadyBuffered: true)
        _ = receiving.peerClosed()
        [UInt8(1)].withUnsafeBufferPointer { receiving.bodyReceived($0) }
        guard case .dispatch(let head, _, _) = receiving.requestComplete() else {
            Issue.record("a complete request is dispatched")
            return
        }
        receiving.requestRouted(HTTPRequest(method: head.method, target: head.target))
        #expect(Self.answer(1, &receiving) == "write 1 /x close")
        #expect(Self.name(receiving.outputDrained(now: 0)) == "close")

        // A FIN read while the final answer is being written: close instead of lingering.
        var finishing = Self.machine()
        Self.receive(Self.head(), into: &finishing)
        #expect(Self.answer(1, closes: true, &finishing) == "write 1 / close")
        _ = finishing.peerClosed()
        #expect(Self.name(finishing.outputDrained(now: 0)) == "close")
    }

    // MARK: Refusal and TLS

    /// The body arrives beside the state; a request rejected mid-body lets it go at once, not when
    /// its rejection has been written to a client that may never read it.
    @Test func aRejectedBodyIsNotHeldWhileItsRejectionWaits() {
        var machine = Self.machine()
        _ = machine.headReceived(Self.head(.post, "/x", contentLength: 100_000), now: 0, bodyAlreadyBuffered: false)
        Array(repeating: UInt8(1), count: 60_000).withUnsafeBufferPointer { machine.bodyReceived($0) }
        #expect(machine.receivedBody.count == 60_000)
        #expect(Self.name(machine.rejected()) == "reject /x")
        #expect(machine.receivedBody.count == 0)
    }

    @Test func aRefusedConnectionAnswersAsSoonAsItCanWrite() {
        var plain = Self.machine(refused: true)
        #expect(Self.name(plain.registered()) == "refuse")
        #expect(Self.name(plain.rejected()) == "reject -")

        var secure = Self.machine(secure: true, refused: true)
        #expect(Self.name(secure.registered()) == "nothing")
        #expect(Self.name(secure.handshakeCompleted(now: 1)) == "refuse")

        var accepted = Self.machine(secure: true)
        #expect(accepted.activity == .handshaking)
        #expect(Self.name(accepted.handshakeCompleted(now: 1)) == "readMore")
        #expect(accepted.activity == .reading)
    }

    // MARK: Timers

    @Test func aTimerInEachState() {
        let s = Self.second
        // Handshaking: the head deadline, from the connection's start.
        var handshaking = Self.machine(secure: true)
        #expect(Self.name(handshaking.timerFired(now: 9 * s, outputPending: false)) == "nothing")
        #expect(Self.name(handshaking.timerFired(now: 11 * s, outputPending: false)) == "close")

        // Idle: the idle timeout closes silently.
        var idle = Self.machine()
        #expect(Self.name(idle.timerFired(now: 74 * s, outputPending: false)) == "nothing")
        #expect(Self.name(idle.timerFired(now: 76 * s, outputPending: false)) == "close")

        // Receiving a head: 408 from the first byte, however recent the last one.
        var head = Self.machine()
        head.requestBytesBuffered(now: 1 * s)
        head.didRead(now: 10 * s)
        #expect(Self.name(head.timerFired(now: 10 * s, outputPending: false)) == "nothing")
        #expect(Self.name(head.timerFired(now: 12 * s, outputPending: false)) == "timeOut")

        // Receiving a body: a pause, or a rate below the minimum, answers 408.
        var paused = Self.machine()
        paused.requestBytesBuffered(now: 0)
        _ = paused.headReceived(Self.head(.post, "/x", contentLength: 100_000), now: 0, bodyAlreadyBuffered: false)
        #expect(Self.name(paused.timerFired(now: 19 * s, outputPending: false)) == "nothing")
        #expect(Self.name(paused.timerFired(now: 21 * s, outputPending: false)) == "timeOut")
        var fastEnough = paused
        Array(repeating: UInt8(1), count: 10_000).withUnsafeBufferPointer { fastEnough.bodyReceived($0) }
        fastEnough.didRead(now: 20 * s)
        // 10,000 bytes at 500 B/s earn 20 s more than the first 20 s window.
        #expect(Self.name(fastEnough.timerFired(now: 39 * s, outputPending: false)) == "nothing")
        #expect(Self.name(fastEnough.timerFired(now: 41 * s, outputPending: false)) == "timeOut")

        // Awaiting the handler: no read deadline; only queued output that doesn't move.
        var awaiting = Self.machine()
        Self.receive(Self.head(), into: &awaiting)
        #expect(Self.name(awaiting.timerFired(now: 200 * s, outputPending: false)) == "nothing")
        awaiting.didWrite(now: 200 * s)
        #expect(Self.name(awaiting.timerFired(now: 229 * s, outputPending: true)) == "nothing")
        #expect(Self.name(awaiting.timerFired(now: 231 * s, outputPending: true)) == "close")

        // Reading with a pipelined answer still queued: the write deadline wins over the idle one.
        var writing = Self.machine()
        Self.receive(Self.head(), into: &writing)
        _ = Self.answer(1, &writing)
        #expect(Self.name(writing.timerFired(now: 31 * s, outputPending: true)) == "close")

        // Output queued after a long quiet spell: its write deadline counts from when it was
        // queued, not from the last write before the quiet.
        var quiet = Self.machine()
        quiet.didWrite(now: 1 * s)
        quiet.outputStarted(now: 100 * s)
        #expect(Self.name(quiet.timerFired(now: 101 * s, outputPending: true)) == "nothing")
        #expect(Self.name(quiet.timerFired(now: 131 * s, outputPending: true)) == "close")

        // Finishing: the final answer must leave within the write deadline.
        var finishing = Self.machine()
        Self.receive(Self.head(keepAlive: false), into: &finishing)
        _ = Self.answer(1, &finishing)
        #expect(Self.name(finishing.timerFired(now: 29 * s, outputPending: true)) == "nothing")
        #expect(Self.name(finishing.timerFired(now: 31 * s, outputPending: true)) == "close")

        // Lingering: its own short deadline.
        _ = finishing.outputDrained(now: 40 * s)
        #expect(Self.name(finishing.timerFired(now: 41 * s, outputPending: false)) == "nothing")
        #expect(Self.name(finishing.timerFired(now: 43 * s, outputPending: false)) == "close")

        // Closed: nothing.
        _ = finishing.close()
        #expect(Self.name(finishing.timerFired(now: 1000 * s, outputPending: false)) == "nothing")
    }

    // MARK: Drain

    @Test func drainClosesAnIdleConnectionAndLetsAResponseInFlightFinishWithClose() {
        var idle = Self.machine()
        #expect(Self.name(idle.drainStarted(bufferEmpty: true, outputPending: false)) == "close")

        // Bytes of a next request, or an answer still being written, are not idle.
        var buffered = Self.machine()
        #expect(Self.name(buffered.drainStarted(bufferEmpty: false, outputPending: false)) == "nothing")
        #expect(Self.name(buffered.drainStarted(bufferEmpty: true, outputPending: true)) == "nothing")

        var busy = Self.machine()
        Self.receive(Self.head(), into: &busy)
        #expect(Self.name(busy.drainStarted(bufferEmpty: true, outputPending: false)) == "nothing")
        #expect(Self.answer(1, serverClosing: true, &busy) == "write 1 / close")
        #expect(Self.name(busy.outputDrained(now: 0)) == "linger")

        var streaming = Self.machine()
        Self.receive(Self.head(), into: &streaming)
        #expect(Self.answer(1, stream: true, serverClosing: true, &streaming) == "stream 1 chunked close")
        #expect(Self.name(streaming.drainStarted(bufferEmpty: true, outputPending: false)) == "nothing")
        #expect(Self.name(streaming.streamEnded(number: 1)) == "end 1 close")
    }

    @Test func aStreamEventForAnotherRequestChangesNothing() {
        var machine = Self.machine()
        Self.receive(Self.head(), into: &machine)
        _ = Self.answer(1, stream: true, &machine)
        #expect(Self.name(machine.streamEnded(number: 7)) == "nothing")
        #expect(Self.name(machine.streamFailed(number: 7)) == "nothing")
        machine.streamQueued(bytes: 100)
        #expect(Self.name(machine.outputDrained(now: 0)) == "nothing")  // no producer waits
        #expect(Self.name(machine.streamChunk(number: 1, bytes: 10)) == "chunk chunked")
        #expect(Self.name(machine.streamChunk(number: 7, bytes: 10)) == "rejectChunk")
        guard case .abortStream(let stream) = machine.streamFailed(number: 1) else {
            Issue.record("a failing producer aborts its stream")
            return
        }
        #expect(stream.bytesSent == 100)
    }

    @Test func aParkedProducerResumesWhenTheQueueDrainsAndFailsWhenTheConnectionCloses() async throws {
        var machine = Self.machine()
        Self.receive(Self.head(), into: &machine)
        _ = Self.answer(1, stream: true, &machine)
        var actions: [String] = []
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            machine.producerParked(ConnectionStateMachine.ParkedProducer(continuation))
            let action = machine.outputDrained(now: 0)
            actions.append(Self.name(action))
            if case .resumeProducer(let parked) = action { parked.continuation.resume() } else { continuation.resume() }
        }
        var closed = false
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                machine.producerParked(ConnectionStateMachine.ParkedProducer(continuation))
                let action = machine.close()
                actions.append(Self.name(action))
                if case .failProducer(let parked) = action {
                    parked.continuation.resume(throwing: HTTPBodyWriter.ConnectionClosed())
                } else {
                    continuation.resume()
                }
            }
        } catch is HTTPBodyWriter.ConnectionClosed {
            closed = true
        }
        #expect(actions == ["resumeProducer", "failProducer"])
        #expect(closed)
        #expect(machine.isClosed)
    }

    // MARK: Streamed request bodies

    /// Dispatches a streamed request at its head and routes it, as `parseAndDispatch` does.
    private static func receiveStreamedHead(
        _ head: RequestHead, bodyAlreadyBuffered: Bool = false, at now: UInt64 = 0, into machine: inout ConnectionStateMachine
    ) -> String {
        machine.requestBytesBuffered(now: now)
        let action = machine.streamedHeadReceived(head, now: now, bodyAlreadyBuffered: bodyAlreadyBuffered)
        if case .dispatch(let head, _, _) = action {
            machine.requestRouted(HTTPRequest(method: head.method, target: head.target, version: head.version))
        }
        return name(action)
    }

    @Test func streamedBodyIsDispatchedAtItsHeadAndKeepsTheConnectionWhenReadWhole() {
        var machine = Self.machine()
        let head = Self.head(.put, "/up", contentLength: 10)
        #expect(Self.receiveStreamedHead(head, into: &machine) == "dispatch 1 /up 0B")
        // The handler runs and the body is still read and parsed.
        #expect(machine.activity == .reading)
        #expect(machine.isReceivingStreamedBody)
        #expect(machine.awaitedRequest(1)?.target == "/up")
        #expect(machine.unansweredRequest?.target == "/up")
        machine.streamedBodyReceived(10)
        #expect(Self.name(machine.requestComplete()) == "nothing")
        #expect(machine.activity == .responding)
        #expect(Self.answer(1, &machine) == "write 1 /up keep-alive")
        #expect(machine.activity == .reading)
    }

    /// An answer before the body's end is the connection's last when the rest is large, chunked,
    /// not yet committed to (a client waiting for 100), or held back for the handler, and when the
    /// answer is streamed.
    @Test func answerBeforeTheStreamedBodyEndsClosesTheConnection() {
        let large = ConnectionStateMachine.maxDiscardedBody + 5
        var machine = Self.machine()
        _ = Self.receiveStreamedHead(Self.head(.put, "/up", contentLength: large), into: &machine)
        machine.streamedBodyReceived(4)
        #expect(Self.answer(1, &machine) == "write 1 /up close")
        #expect(machine.activity == .finishing)

        var chunked = Self.machine()
        var chunkedHead = Self.head(.put, "/up")
        chunkedHead.framing = .chunked
        _ = Self.receiveStreamedHead(chunkedHead, into: &chunked)
        #expect(Self.answer(1, &chunked) == "write 1 /up close")

        var waiting = Self.machine()
        _ = Self.receiveStreamedHead(Self.head(.put, "/up", expectsContinue: true, contentLength: 10), into: &waiting)
        #expect(Self.answer(1, &waiting) == "write 1 /up close")

        var paused = Self.machine()
        _ = Self.receiveStreamedHead(Self.head(.put, "/up", contentLength: 10), into: &paused)
        paused.streamedBodyPaused()
        #expect(Self.answer(1, &paused) == "write 1 /up close")

        var streaming = Self.machine()
        _ = Self.receiveStreamedHead(Self.head(.put, "/up", contentLength: 10), into: &streaming)
        #expect(Self.answer(1, stream: true, &streaming) == "stream 1 chunked close")
    }

    /// A small rest of the body is read and thrown away; the connection then serves its next
    /// request. A stall while discarding closes without a second answer.
    @Test func answerBeforeASmallRestDiscardsItAndKeepsTheConnection() {
        let length = ConnectionStateMachine.maxDiscardedBody + 4
        var machine = Self.machine()
        _ = Self.receiveStreamedHead(Self.head(.put, "/up", contentLength: length), into: &machine)
        machine.streamedBodyReceived(4)
        #expect(Self.answer(1, &machine) == "write 1 /up keep-alive")
        #expect(machine.isDiscardingBody)
        #expect(machine.activity == .reading)
        #expect(Self.name(machine.requestComplete()) == "nothing")
        #expect(Self.receive(Self.head(.get, "/next"), into: &machine) == ["nothing", "dispatch 2 /next 0B"])

        var stalled = Self.machine()
        _ = Self.receiveStreamedHead(Self.head(.put, "/up", contentLength: 10), into: &stalled)
        stalled.didRead(now: 5 * Self.second)
        #expect(Self.answer(1, &stalled) == "write 1 /up keep-alive")
        #expect(Self.name(stalled.timerFired(now: 24 * Self.second, outputPending: false)) == "nothing")
        #expect(Self.name(stalled.timerFired(now: 26 * Self.second, outputPending: false)) == "close")

        // Trickling keeps the read deadline away, not the whole rest's.
        var trickling = Self.machine()
        _ = Self.receiveStreamedHead(Self.head(.put, "/up", contentLength: 1000), into: &trickling)
        #expect(Self.answer(1, &trickling) == "write 1 /up keep-alive")
        for second in stride(from: UInt64(5), through: 20, by: 5) {
            trickling.didRead(now: second * Self.second)
            #expect(Self.name(trickling.timerFired(now: second * Self.second, outputPending: false)) == "nothing")
        }
        trickling.didRead(now: 21 * Self.second)
        #expect(Self.name(trickling.timerFired(now: 21 * Self.second, outputPending: false)) == "close")
    }

    /// 100 Continue waits for the handler's first read, and is not sent once body bytes came.
    @Test func streamedContinueWaitsForTheHandler() {
        var machine = Self.machine()
        let head = Self.head(.put, "/up", expectsContinue: true, contentLength: 10)
        #expect(Self.receiveStreamedHead(head, into: &machine) == "dispatch 1 /up 0B")
        #expect(Self.name(machine.streamedBodyStarted(number: 2)) == "nothing")
        #expect(Self.name(machine.streamedBodyStarted(number: 1)) == "writeContinue")
        #expect(Self.name(machine.streamedBodyStarted(number: 1)) == "nothing")

        var eager = Self.machine()
        _ = Self.receiveStreamedHead(head, into: &eager)
        eager.streamedBodyReceived(3)
        #expect(Self.name(eager.streamedBodyStarted(number: 1)) == "nothing")

        var already = Self.machine()
        _ = Self.receiveStreamedHead(head, bodyAlreadyBuffered: true, into: &already)
        #expect(Self.name(already.streamedBodyStarted(number: 1)) == "nothing")
    }

    /// The body-read timeout counts the client's stalls, not the handler's: paused, it does not
    /// run, and it counts again from the resume. The rate deadline does not apply.
    @Test func streamedBodyTimesOutOnlyOnTheClientsStalls() {
        var machine = Self.machine()
        _ = Self.receiveStreamedHead(Self.head(.put, "/up", contentLength: 1 << 30), into: &machine)
        machine.didRead(now: 10 * Self.second)
        machine.streamedBodyReceived(1000)
        // 200 s in at 5 B/s: a whole body would be past its rate deadline; a streamed one moves.
        machine.didRead(now: 200 * Self.second)
        #expect(Self.name(machine.timerFired(now: 201 * Self.second, outputPending: false)) == "nothing")
        machine.streamedBodyPaused()
        #expect(machine.isBodyPaused)
        #expect(Self.name(machine.timerFired(now: 500 * Self.second, outputPending: false)) == "nothing")
        let resumed = machine.streamedBodyDrained(number: 1, now: 500 * Self.second)
        let resumedTwice = machine.streamedBodyDrained(number: 1, now: 500 * Self.second)
        #expect(resumed && !resumedTwice)
        #expect(Self.name(machine.timerFired(now: 529 * Self.second, outputPending: false)) == "nothing")
        #expect(Self.name(machine.timerFired(now: 531 * Self.second, outputPending: false)) == "timeOut")
        // The rejection ends the request; the handler's late answer is dropped.
        #expect(Self.name(machine.rejected()) == "reject /up")
        #expect(Self.answer(1, &machine) == "nothing")
    }

    /// The client's FIN mid-body: nothing more can arrive, so the connection closes.
    @Test func peerClosingMidStreamedBodyCloses() {
        var machine = Self.machine()
        _ = Self.receiveStreamedHead(Self.head(.put, "/up", contentLength: 10), into: &machine)
        machine.streamedBodyReceived(4)
        #expect(Self.name(machine.peerClosed()) == "nothing")
        #expect(Self.name(machine.inputExhausted(bufferEmpty: true, parserIdle: false, outputPending: false)) == "close")
    }
}
