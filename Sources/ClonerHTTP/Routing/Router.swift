/// Maps method + path to a handler. Built before the server starts and then immutable, so the
/// loops read it without locks.
///
/// The most specific pattern matching the path wins (literal segments beat parameters, from the
/// left); if it has no handler for the method the answer is 405 with `Allow`, and a path no
/// pattern matches is 404. HEAD falls back to the GET handler (the server drops the body).
public struct Router: Sendable {
    struct Route: Sendable {
        var pattern: PathPattern
        var handlers: [HTTPMethod: HTTPHandler]
    }

    public enum Resolution: Sendable {
        case matched(HTTPHandler, route: String, parameters: [String: String])
        case notFound
        case methodNotAllowed(allowed: [HTTPMethod])
    }

    private var routes: [Route] = []

    public init() {}

    /// Adds a handler; registering the same method and pattern twice is a programmer mistake.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: HTTPHandler) {
        let parsed = PathPattern(pattern)
        if let index = routes.firstIndex(where: { $0.pattern == parsed }) {
            precondition(routes[index].handlers[method] == nil, "route \(method) \(pattern) registered twice")
            routes[index].handlers[method] = handler
        } else {
            routes.append(Route(pattern: parsed, handlers: [method: handler]))
        }
    }

    public mutating func get(_ pattern: String, _ body: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) {
        add(.get, pattern, .immediate(body))
    }

    public mutating func post(_ pattern: String, _ body: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) {
        add(.post, pattern, .immediate(body))
    }

    public mutating func put(_ pattern: String, _ body: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) {
        add(.put, pattern, .immediate(body))
    }

    public mutating func patch(_ pattern: String, _ body: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) {
        add(.patch, pattern, .immediate(body))
    }

    public mutating func delete(_ pattern: String, _ body: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) {
        add(.delete, pattern, .immediate(body))
    }

    /// A handler that answers later through its responder (see `HTTPHandler.deferred`).
    public mutating func add(
        _ method: HTTPMethod, _ pattern: String,
        deferred body: @escaping @Sendable (HTTPRequest, HTTPResponder) throws -> Void
    ) {
        add(method, pattern, .deferred(body))
    }

    /// A handler run as a Swift concurrency task (see `HTTPHandler.async`).
    public mutating func add(
        _ method: HTTPMethod, _ pattern: String,
        async body: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse
    ) {
        add(method, pattern, .async(body))
    }

    /// A handler that reads its body as it arrives, up to `maxBodyBytes` (see `HTTPHandler.streamed`).
    public mutating func add(
        _ method: HTTPMethod, _ pattern: String, maxBodyBytes: Int,
        streamed body: @escaping @Sendable (HTTPRequest, HTTPRequestBody) async throws -> HTTPResponse
    ) {
        add(method, pattern, .streamed(maxBodyBytes: maxBodyBytes, body))
    }

    public func resolve(_ method: HTTPMethod, path: Substring) -> Resolution {
        let segments = path.split(separator: "/").map { PercentDecoding.decode($0, plusIsSpace: false) }
        var best: (route: Route, parameters: [String: String])?
        for route in routes {
            guard let parameters = route.pattern.match(segments) else { continue }
            if let current = best, !route.pattern.isMoreSpecific(than: current.route.pattern) { continue }
            best = (route, parameters)
        }
        guard let (route, parameters) = best else { return .notFound }
        if let handler = route.handlers[method] ?? (method == .head ? route.handlers[.get] : nil) {
            return .matched(handler, route: route.pattern.description, parameters: parameters)
        }
        var allowed = route.handlers.keys.sorted { $0.rawValue < $1.rawValue }
        if route.handlers[.get] != nil && route.handlers[.head] == nil {
            allowed.append(.head)
            allowed.sort { $0.rawValue < $1.rawValue }
        }
        return .methodNotAllowed(allowed: allowed)
    }
}
