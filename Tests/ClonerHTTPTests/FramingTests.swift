import ClonerTestSupport
import Foundation
import Testing
@testable import ClonerHTTP

/// Every framing rejection (docs/architecture.md#framing-and-limits) over a real socket: the status, `Connection: close`,
/// and the server closing the connection.
@Suite struct FramingTests {
    static let cases: [(String, String, Int)] = [
        (
            "Content-Length with Transfer-Encoding",
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400
        ),
        ("Content-Length +5", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\nhello", 400),
        ("Content-Length -1", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400),
        ("Content-Length list", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 5\r\n\r\nhello", 400),
        (
            "differing Content-Length",
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!", 400
        ),
        (
            "Content-Length overflow",
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 18446744073709551617\r\n\r\n", 400
        ),
        ("bad chunk size", "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nxyz\r\n", 400),
        (
            "overlong chunk size",
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n10000000000000000\r\n", 400
        ),
        ("obs-fold", "GET /hello HTTP/1.1\r\nHost: x\r\nX-A: a\r\n  folded\r\n\r\n", 400),
        ("whitespace before colon", "GET /hello HTTP/1.1\r\nHost: x\r\nX-A : a\r\n\r\n", 400),
        ("whitespace in field name", "GET /hello HTTP/1.1\r\nHost: x\r\nX A: a\r\n\r\n", 400),
        ("NUL in field", "GET /hello HTTP/1.1\r\nHost: x\r\nX-A: a\u{0}b\r\n\r\n", 400),
        ("CR in field", "GET /hello HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n", 400),
        ("bare LF line end", "GET /hello HTTP/1.1\nHost: x\n\n", 400),
        ("missing Host on 1.1", "GET /hello HTTP/1.1\r\n\r\n", 400),
        ("duplicate Host", "GET /hello HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", 400),
        ("Transfer-Encoding on 1.0", "POST /echo HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
        ("final coding not chunked", "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 400),
        (
            "chunked after unknown coding",
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: br, chunked\r\n\r\n0\r\n\r\n", 501
        ),
        ("HTTP/2.0", "GET /hello HTTP/2.0\r\nHost: x\r\n\r\n", 505),
        ("HTTP/0.9 style", "GET /hello HTTP/0.9\r\nHost: x\r\n\r\n", 505),
        ("request line too long", "GET /" + String(repeating: "a", count: 8 * 1024) + " HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        ("header field too long", "GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "b", count: 8 * 1024) + "\r\n\r\n", 431),
        (
            "header section too large",
            "GET /hello HTTP/1.1\r\nHost: x\r\n"
                + (0..<5).map { "X-F\($0): " + String(repeating: "c", count: 7000) + "\r\n" }.joined() + "\r\n", 431
        ),
        (
            "too many header fields",
            "GET /hello HTTP/1.1\r\nHost: x\r\n"
                + (0..<100).map { "X-F\($0): v\r\n" }.joined() + "\r\n", 431
        ),
        ("body too large", "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 8388609\r\n\r\nabc", 413),
    ]

    @Test(arguments: cases)
    func rejectsAndCloses(name: String, request: String, status: Int) throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send(request)
        let response = try #require(client.readResponse(), "\(name): no response")
        #expect(response.status == status, "\(name)")
        #expect(response.header("Connection") == "close", "\(name)")
        #expect(client.isClosedByPeer(), "\(name): connection left open")
    }

    @Test func chunkedBodyOverTheLimitIs413() throws {
        var limits = HTTPLimits()
        limits.maxBodyLength = 16
        let server = try TestServer(limits: limits)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n0123456789abcdef\r\n1\r\nX\r\n")
        let response = try #require(client.readResponse())
        #expect(response.status == 413)
        #expect(response.header("Connection") == "close")
        #expect(client.isClosedByPeer())
    }

    @Test func leadingBlankLinesAreSkipped() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
    }

    /// The classic CL.TE smuggling shape: a front end honouring Content-Length would forward the
    /// "GET /items/smuggled" as body; we must not answer it as a second request.
    @Test func nothingIsSmuggledBehindARejectedRequest() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send(
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
                + "GET /items/smuggled HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try #require(client.readResponse())
        #expect(response.status == 400)
        #expect(client.isClosedByPeer())
    }

    /// A body that looks like a request stays a body.
    @Test func bodyBytesAreNeverParsedAsARequest() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let inner = "GET /items/inner HTTP/1.1\r\nHost: x\r\n\r\n"
        client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: \(inner.utf8.count)\r\n\r\n" + inner)
        let response = try #require(client.readResponse())
        #expect(response.text == inner)
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.text == "hello")
    }
}
