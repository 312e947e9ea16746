#if canImport(Glibc)
import Glibc
#endif
import Foundation
import ClonerTestSupport
import Testing
@testable import ClonerHTTP

/// A real server on 127.0.0.1 with an ephemeral port, shut down by `stop()`.
final class TestServer: Sendable {
    let server: HTTPServer
    let port: Int

    init(
        router: Router = TestServer.defaultRouter(), limits: HTTPLimits = HTTPLimits(), loops: Int = 2,
        tls: TLSConfiguration? = nil, hooks: HTTPServer.Hooks = HTTPServer.Hooks(), host: String = "127.0.0.1",
        trustedProxies: TrustedProxies = TrustedProxies(), proxyProtocol: Bool = false
    ) throws {
        server = HTTPServer(
            configuration: .init(
                host: host, port: 0, eventLoopCount: loops, limits: limits, tls: tls,
                trustedProxies: trustedProxies, proxyProtocol: proxyProtocol),
            router: router, hooks: hooks)
        port = try server.start()
    }

    func stop(drainTimeout: Duration = .seconds(5)) {
        server.shutdown(drainTimeout: drainTimeout)
    }

    /// `/hello` (text), `/echo` (POST body back), `/items/{id}` (the id), `/slow` (answers after
    /// 300 ms from another queue), `/fail` (throws).
    static func defaultRouter() -> Router {
        var router = Router()
        router.get("/hello") { _ in .text("hello") }
        router.post("/echo") { request in
            HTTPResponse(status: .ok, headers: ["Content-Type": "application/octet-stream"], body: request.body)
        }
        router.put("/echo") { request in HTTPResponse(body: request.body) }
        router.get("/items/{id}") { request in .text("item \(request.parameter("id") ?? "?")") }
        router.add(
            .get, "/slow",
            deferred: { request, responder in
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
                    responder.respond(.text("slow \(request.queryValue("n") ?? "")"))
                }
            })
        router.get("/fail") { _ in throw TestFailure() }
        return router
    }
}

struct TestFailure: Error {}

/// Runs a command and returns its exit status and standard output.
@discardableResult
func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let outcome = try ShortCommand.run(executable, arguments)
    return (outcome.status, String(decoding: outcome.output, as: UTF8.self))
}
