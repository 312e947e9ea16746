import ClonerHTTP
import Logging

/// A problem thrown by a handler answers for itself, stamped with the request's id.
extension Problem: HTTPResponseError {
    public func response(for request: HTTPRequest) -> HTTPResponse {
        response(requestID: request.id)
    }

    public func response(requestID: String) -> HTTPResponse {
        var headers: HTTPHeaders = ["Content-Type": Problem.contentType]
        if status == 401 { headers.set("WWW-Authenticate", "Bearer") }
        // Both mean "the same request may succeed shortly" (RFC 9110 §10.2.3).
        if status == 503 || code == .inProgress { headers.set("Retry-After", "1") }
        return HTTPResponse(status: HTTPStatus(status), headers: headers, body: with(requestId: requestID).jsonBytes())
    }

    /// The body of a response the server makes on its own (framing rejections, 404/405 from the
    /// router, timeouts, unexpected errors), in the same problem+json shape as every other error.
    public static func serverError(_ context: HTTPErrorContext) -> HTTPResponse {
        let status = context.status.code
        let code: Code
        switch status {
        case 400: code = .badRequest
        case 404: code = .notFound
        case 405: code = .methodNotAllowed
        case 408: code = .requestTimeout
        case 413: code = .payloadTooLarge
        case 414: code = Code("uri_too_long")
        case 431: code = Code("header_fields_too_large")
        case 503: code = .serviceUnavailable
        case 500: return Problem.internalError().response(requestID: context.requestID)
        default: code = Problem.code(forStatus: status)
        }
        var detail = context.reason
        if status == 405 {
            detail =
                "\(context.request?.method.rawValue ?? "this method") is not allowed here; allowed: "
                + context.allowedMethods.map(\.rawValue).joined(separator: ", ")
        }
        return Problem(code: code, status: status, detail: detail).response(requestID: context.requestID)
    }
}

extension Problem {
    /// The answer to an error a route's work threw: its problem, or for an unexpected error a
    /// logged 500 that names only the request id (the details go to the log, never the client).
    static func response(reporting error: any Error, request: HTTPRequest, during operation: Operation, logger: Logger) -> HTTPResponse {
        if let problem = Problem.from(error, during: operation) {
            return problem.response(requestID: request.id)
        }
        logger.error(
            "request failed",
            metadata: [
                "request_id": "\(request.id)", "method": "\(request.method.rawValue)", "path": "\(request.path)",
                "error": "\(error)",
            ])
        return Problem.internalError().response(requestID: request.id)
    }
}
