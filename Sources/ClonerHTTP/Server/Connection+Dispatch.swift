/// Handing a parsed request to its route and taking the handler's answer back.
extension Connection {
    func dispatch(_ head: RequestHead, body: [UInt8], number: Int) {
        let clientID = head.headers.clientValue(.requestID)
        let id = clientID.flatMap { RequestIDGenerator.isAcceptable($0) ? $0 : nil } ?? owner.nextRequestID()
        var request = HTTPRequest(
            method: head.method, target: head.target, version: head.version, headers: head.headers,
            body: body, id: id, remoteAddress: core.clientAddress(of: head.headers, connectionAddress: remoteAddress),
            isSecure: tls != nil)
        core.hooks.onRequestStart?(request)

        let resolution = headResolution ?? core.router.resolve(head.method, path: request.path)
        headResolution = nil
        switch resolution {
        case .notFound:
            machine.requestRouted(request)
            let response = core.hooks.errorResponse(
                HTTPErrorContext(
                    status: .notFound, reason: "no route for \(request.path)", requestID: id, request: request))
            answer(number, .success(response))
        case .methodNotAllowed(let allowed):
            machine.requestRouted(request)
            var response = core.hooks.errorResponse(
                HTTPErrorContext(
                    status: .methodNotAllowed, reason: "\(head.method) is not allowed on \(request.path)",
                    requestID: id, request: request, allowedMethods: allowed))
            response.headers.set("Allow", allowed.map(\.rawValue).joined(separator: ", "))
            answer(number, .success(response))
        case .matched(let handler, let route, let parameters):
            request.route = route
            request.pathParameters = parameters
            machine.requestRouted(request)
            if let intercept = core.hooks.intercept {
                do {
                    if let early = try intercept(request) {
                        answer(number, .success(early))
                        return
                    }
                } catch {
                    answer(number, .failure(error))
                    return
                }
            }
            run(handler, request, number: number, framing: head.framing)
        }
    }

    func run(_ handler: HTTPHandler, _ request: HTTPRequest, number: Int, framing: BodyFraming) {
        switch handler {
        case .immediate(let body):
            let result: Result<HTTPResponse, any Error>
            do { result = .success(try body(request)) } catch { result = .failure(error) }
            answer(number, result)
        case .deferred(let body):
            let responder = owner.makeResponder(token: token, requestNumber: number)
            do {
                try body(request, responder)
            } catch {
                responder.fail(error)
            }
        case .async(let body):
            let responder = owner.makeResponder(token: token, requestNumber: number)
            Task(executorPreference: core.handlerExecutor) {
                do {
                    responder.respond(try await body(request))
                } catch {
                    responder.fail(error)
                }
            }
        case .streamed(_, let body):
            let responder = owner.makeResponder(token: token, requestNumber: number)
            let requestBody: HTTPRequestBody
            if machine.isReceivingStreamedBody {
                var expectedLength: Int?
                if case .contentLength(let length) = framing { expectedLength = length }
                requestBody = HTTPRequestBody(
                    expectedLength: expectedLength, window: Self.requestBodyWindow,
                    signal: owner.makeRequestBodySignal(token: token, requestNumber: number))
                inboundBody = requestBody
            } else {
                // A request without a body is dispatched whole: its body is empty and ended.
                requestBody = HTTPRequestBody(
                    expectedLength: request.headers["content-length"] == nil ? nil : 0,
                    window: Self.requestBodyWindow
                ) { _ in }
                requestBody.finish()
            }
            Task(executorPreference: core.handlerExecutor) {
                do {
                    responder.respond(try await body(request, requestBody))
                } catch {
                    responder.fail(error)
                }
            }
        }
    }

    /// The handler's answer for request `number`, arriving later on the loop thread (deferred and
    /// async handlers answer through `loop.execute`, never from inside `process`).
    func complete(_ number: Int, _ result: Result<HTTPResponse, any Error>) {
        if answer(number, result) { resumeReading() }
    }

    /// Queues the answer for request `number`; true when it was a plain response, after which the
    /// connection reads on (or finishes). A synchronous answer is written by `process`'s flush.
    @discardableResult
    func answer(_ number: Int, _ result: Result<HTTPResponse, any Error>) -> Bool {
        guard let request = machine.awaitedRequest(number) else { return false }
        let response: HTTPResponse
        switch result {
        case .success(let answer): response = answer
        case .failure(let error): response = core.response(for: error, request: request)
        }
        let bodyUnread = machine.isReceivingStreamedBody
        let action = machine.responseReady(
            number: number, status: response.status, handlerCloses: response.headers.containsToken("close", in: "connection"),
            hasStream: response.stream != nil, serverClosing: core.isClosing, streamLength: response.streamLength)
        if bodyUnread, !machine.isReceivingStreamedBody {
            failInboundBody(HTTPRequestBody.AnsweredEarly())
        }
        switch action {
        case .writeResponse(let reply):
            write(
                response, method: request.method, version: request.version, request: request,
                requestID: request.id, startedAt: reply.startedAt, keepAlive: reply.keepAlive)
            return true
        case .startStream(let reply, let chunked):
            guard let producer = response.stream else { preconditionFailure("a stream without a producer") }
            var head: [UInt8] = []
            head.reserveCapacity(256)
            ResponseHeadWriter.write(
                status: response.status, headers: response.headers, contentLength: response.streamLength, chunked: chunked,
                date: owner.date(), requestID: request.id, connection: reply.keepAlive ? .none : .close, into: &head)
            machine.streamQueued(bytes: head.count)
            enqueue(head)
            flush()
            updateInterest()
            let writer = owner.makeBodyWriter(token: token, requestNumber: number)
            Task(executorPreference: core.handlerExecutor) {
                do {
                    try await producer(writer)
                    writer.finish()
                } catch {
                    writer.fail()
                }
            }
            return false
        default:
            perform(action)
            return false
        }
    }

    /// After a response: serve whatever pipelined requests are already buffered.
    func resumeReading() {
        flush()
        if machine.activity == .reading {
            process()
            if machine.activity == .reading && tls?.hasPendingBytes == true {
                readOnce()
                process()
            }
        }
        updateInterest()
    }
}
