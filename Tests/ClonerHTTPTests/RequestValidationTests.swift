#if canImport(Glibc)
import Glibc
#endif
import ClonerTestSupport
import Foundation
import Testing
@testable import ClonerHTTP

/// Request heads that are well-framed but not acceptable: an expectation we can't meet, a target
/// that is not a valid URI, and optional whitespace around field values — over real sockets.
@Suite struct RequestValidationTests {
    static func router() -> Router {
        var router = TestServer.defaultRouter()
        router.get("/field") { request in .text("[\(request.headers["X-Value"] ?? "")]") }
        router.get("/query") { request in .text("[\(request.queryValue("name") ?? "")]") }
        return router
    }

    @Test func anExpectationOtherThan100ContinueGets417() throws {
        let server = try TestServer(router: Self.router())
        defer { server.stop() }
        for value in ["something-else", "100-continue, x-more", "200-ok"] {
            let client = try RawClient(port: server.port)
            client.send("POST /echo HTTP/1.1\r\nHost: x\r\nExpect: \(value)\r\nContent-Length: 3\r\n\r\nabc")
            let response = try #require(client.readResponse(informational: true))
            #expect(response.status == 417, "Expect: \(value)")
            #expect(response.text.contains("expectation"), "\(response.text)")
            #expect(response.header("Connection") == "close")
        }
        // 100-continue itself (any case, with OWS) still works.
        let client = try RawClient(port: server.port)
        client.send("POST /echo HTTP/1.1\r\nHost: x\r\nExpect:  100-Continue \r\nContent-Length: 3\r\n\r\n")
        #expect(client.readResponse(informational: true)?.status == 100)
        client.send("abc")
        #expect(client.readResponse()?.text == "abc")
    }

    @Test func invalidPercentEncodingInTheQueryGets400() throws {
        let server = try TestServer(router: Self.router())
        defer { server.stop() }
        for target in ["/query?name=%zz", "/query?name=%4", "/query?name=abc%"] {
            let client = try RawClient(port: server.port)
            client.send("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try #require(client.readResponse())
            #expect(response.status == 400, "\(target)")
            #expect(response.text.contains("percent-encoding"), "\(response.text)")
            #expect(response.text.contains("query"), "\(response.text)")
        }
        let path = try RawClient(port: server.port)
        path.send("GET /items/%g1 HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try #require(path.readResponse())
        #expect(response.status == 400)
        #expect(response.text.contains("path"), "\(response.text)")
        // Valid escapes still decode.
        let good = try RawClient(port: server.port)
        good.send("GET /query?name=%41%c3%a9+b HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(good.readResponse()?.text == "[Aé b]")
    }

    /// RFC 9110 §5.5: optional whitespace around a field value is not part of it; the parser
    /// strips it, so every consumer (the bearer-token check included) sees the bare value.
    @Test func whitespaceAroundFieldValuesIsNotPartOfThem() throws {
        let server = try TestServer(router: Self.router())
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("GET /field HTTP/1.1\r\nHost: x\r\nX-Value: \t Bearer key   \t\r\n\r\n")
        #expect(client.readResponse()?.text == "[Bearer key]")
    }
}
