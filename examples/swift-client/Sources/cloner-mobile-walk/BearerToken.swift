import HTTPTypes
import OpenAPIRuntime
import Foundation

/// Adds `Authorization: Bearer <key>` to every request. OpenAPI leaves credentials out of the
/// operations (the generator drops an `Authorization` parameter by design), so a client adds them
/// itself; this is the whole of it. It only adds a field the generated code never sets and changes
/// nothing the generated code sends.
struct BearerToken: ClientMiddleware {
    let key: String

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(key)"
        return try await next(request, body, baseURL)
    }
}
