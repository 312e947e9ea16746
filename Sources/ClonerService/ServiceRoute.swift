import ClonerHTTP

/// One route the service answers: the method, the path pattern in the form `openapi.yaml` uses
/// under `paths`, and how an application answers it.
///
/// The router is built from `ClonerApplication.routes` and nothing else, so a test can hold the
/// API description against the list the server really registers instead of a copy of it.
public struct ServiceRoute: Sendable {
    public let method: HTTPMethod
    public let pattern: String
    /// Answered without an API key (the probes a load balancer and an orchestrator call); every
    /// other route passes the application's authorization step before its handler runs.
    public let isOpen: Bool
    let handler: @Sendable (ClonerApplication) -> HTTPHandler

    init(
        _ method: HTTPMethod, _ pattern: String, open isOpen: Bool = false, _ handler: @escaping @Sendable (ClonerApplication) -> HTTPHandler
    ) {
        self.method = method
        self.pattern = pattern
        self.isOpen = isOpen
        self.handler = handler
    }
}
