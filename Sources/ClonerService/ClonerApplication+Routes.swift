import ClonerHTTP
import Foundation

extension ClonerApplication {
    /// Every route (docs/architecture.md#routes), each dispatched to its controller; all but the open
    /// probes pass the authorization step first (`authorized`). Cheap answers (probes,
    /// metrics, model, API description) run on the event loop; anything touching SQLite runs on the
    /// store workers; clones on their own queues. `makeRouter()` registers exactly these, and the
    /// OpenAPI conformance test checks each is described in `openapi.yaml`.
    public static let routes: [ServiceRoute] = [
        ServiceRoute(.get, "/healthz", open: true) { _ in .immediate { _ in OperationsController.healthyResponse } },
        ServiceRoute(.get, "/readyz", open: true) { app in
            .deferred { _, responder in
                app.operationsController.probeQueue.async { responder.respond(app.operationsController.readiness(isDraining: app.isDraining)) }
            }
        },
        ServiceRoute(.get, "/metrics") { app in .immediate { _ in app.operationsController.metricsResponse() } },
        ServiceRoute(.get, "/model") { app in .immediate { request in app.operationsController.modelResponse(request) } },
        ServiceRoute(.get, "/openapi.yaml") { app in .immediate { request in app.operationsController.openAPIResponse(request) } },
        ServiceRoute(.get, "/jobs") { app in app.onStore(.read) { request in try app.jobsController.list(request) } },
        ServiceRoute(.get, "/jobs/{id}") { app in app.onStore(.read) { request in try app.jobsController.jobResponse(request) } },
        // Read workers: a cancel reads the row; the job itself writes its `cancelled` row.
        ServiceRoute(.delete, "/jobs/{id}") { app in app.onStore(.read) { request in try app.jobsController.cancel(request) } },
        ServiceRoute(.get, "/jobs/{id}/events") { app in app.onStore(.read) { request in try app.jobsController.events(request) } },
        ServiceRoute(.get, "/{collection}") { app in app.onStore(.read) { request in try app.recordsController.list(request) } },
        ServiceRoute(.post, "/{collection}") { app in app.onStore(.write) { request in try app.recordsController.create(request) } },
        ServiceRoute(.get, "/{collection}/{id}") { app in app.onStore(.read) { request in try app.recordsController.read(request) } },
        ServiceRoute(.patch, "/{collection}/{id}") { app in app.onStore(.write) { request in try app.recordsController.update(request) } },
        ServiceRoute(.delete, "/{collection}/{id}") { app in app.onStore(.delete) { request in try app.recordsController.delete(request) } },
        ServiceRoute(.get, "/{collection}/{id}/clones") { app in app.onStore(.read) { request in try app.recordsController.clones(request) } },
        ServiceRoute(.get, "/{collection}/{id}/{attribute}") { app in app.onStore(.read) { request in try app.blobsController.download(request) } },
        ServiceRoute(.put, "/{collection}/{id}/{attribute}") { app in
            .streamed(maxBodyBytes: app.configuration.maxUploadBytes) { request, body in
                try await app.blobsController.upload(request, body, writeWorkers: app.writeWorkers)
            }
        },
        ServiceRoute(.get, "/{collection}/{id}/export") { app in
            .deferred { request, responder in
                try app.travelController.export(request, spools: app.exportSpools, responder: responder) { error in
                    responder.respond(app.problemResponse(for: error, request: request, during: .read))
                }
            }
        },
        ServiceRoute(.post, "/{collection}/import") { app in
            // Streamed: a document may be far larger than a JSON body, and is checked as it arrives.
            .streamed(maxBodyBytes: GraphTravelController.maximumImportBytes) { request, body in
                do {
                    return try await app.travelController.importGraph(request, body: body)
                } catch let error as HTTPRequestBody.FramingError {
                    throw error
                } catch let error as HTTPRequestBody.ConnectionClosed {
                    throw error
                } catch {
                    return app.problemResponse(for: error, request: request, during: .write)
                }
            }
        },
        ServiceRoute(.post, "/{collection}/{id}/clone") { app in
            .deferred { request, responder in
                try app.clonesController.startClone(request, responder: responder)
            }
        },
    ]

    func makeRouter() -> Router {
        var router = Router()
        for route in ClonerApplication.routes {
            let handler = route.handler(self)
            router.add(route.method, route.pattern, route.isOpen ? handler : authorized(handler))
        }
        return router
    }

    func makeHooks(eventLoopCount: Int) -> HTTPServer.Hooks {
        var hooks = HTTPServer.Hooks()
        let accessLog = AccessLogBuffer(loopCount: eventLoopCount, fileDescriptor: logOutput)
        hooks.accessLog = { [metrics] record in
            let line = AccessLogRecord(
                method: record.method, path: record.path, status: record.status,
                durationMilliseconds: Double(record.duration.components.seconds) * 1000 + Double(record.duration.components.attoseconds) / 1e15,
                bytes: record.bytesSent, bytesReceived: record.bytesReceived, requestID: record.requestID,
                remote: record.remoteAddress
            ).jsonLine()
            accessLog.append(line, loop: record.loop)
            metrics.recordRequest(route: record.route ?? "unmatched", method: record.method, status: record.status, duration: record.duration)
        }
        hooks.onLoopIterationEnd = { loop in accessLog.flush(loop: loop) }
        // The client of a request cut at the drain deadline sees only a closed connection; the
        // log says which request it was, so the loss can be traced and the timeout tuned.
        let drainSeconds = configuration.drainTimeout.components.seconds
        hooks.onRequestCut = { [logger] request in
            logger.warning(
                "request cut at the drain deadline: closed without an answer",
                metadata: [
                    "method": "\(request.method.rawValue)", "path": "\(request.path)",
                    "request_id": "\(request.id)", "remote": "\(request.remoteAddress)",
                    "drain_timeout_seconds": "\(drainSeconds)",
                ])
        }
        hooks.errorResponse = { context in Problem.serverError(context) }
        hooks.proxyHeaderRejected = { [logger] peer, error in
            logger.warning(
                "connection from a trusted proxy closed: bad PROXY protocol header",
                metadata: [
                    "peer": "\(peer)", "error": "\(error)",
                ])
        }
        return hooks
    }

    /// 401/403 as problems, before any work is done (docs/architecture.md#authentication: probes stay open);
    /// first a 400 for a field the service reads once sent twice (an ambiguous key or credential).
    func authorize(_ request: HTTPRequest) throws(Problem) {
        try request.requireSingletonFields()
        let decision = authenticator.authorize(
            authorization: request.headers["Authorization"],
            isWrite: APIKeyAuthenticator.isWrite(method: request.method.rawValue))
        switch decision {
        case .allowed: return
        case .unauthorized(let reason): throw Problem.unauthorized("a valid API key is required (\(reason)): send Authorization: Bearer <key>")
        case .forbidden: throw Problem.forbidden("this API key is read-only; \(request.method.rawValue) needs a full-access key")
        }
    }

    /// `handler` behind the authorization step: one place where every route that is not open
    /// checks its key (and the fields read once), before any of its work, whatever its shape.
    private func authorized(_ handler: HTTPHandler) -> HTTPHandler {
        switch handler {
        case .immediate(let body):
            return .immediate { [self] request in
                try authorize(request)
                return try body(request)
            }
        case .deferred(let body):
            return .deferred { [self] request, responder in
                try authorize(request)
                try body(request, responder)
            }
        case .async(let body):
            return .async { [self] request in
                try authorize(request)
                return try await body(request)
            }
        case .streamed(let maxBodyBytes, let body):
            return .streamed(maxBodyBytes: maxBodyBytes) { [self] request, requestBody in
                try authorize(request)
                return try await body(request, requestBody)
            }
        }
    }

    /// A handler run on a store worker; errors become problems, unexpected ones a logged 500 that
    /// names only the request id.
    private func onStore(_ operation: Problem.Operation, _ body: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) -> HTTPHandler {
        .deferred { [self] request, responder in
            (operation == .read ? readWorkers : writeWorkers).submit { [self] in
                do {
                    responder.respond(try body(request))
                } catch {
                    responder.respond(problemResponse(for: error, request: request, during: operation))
                }
            }
        }
    }

    func problemResponse(for error: any Error, request: HTTPRequest, during operation: Problem.Operation) -> HTTPResponse {
        Problem.response(reporting: error, request: request, during: operation, logger: logger)
    }
}
