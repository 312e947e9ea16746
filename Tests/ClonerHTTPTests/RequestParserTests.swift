import Testing
@testable import ClonerHTTP

/// Parses `text` in one piece and returns the outputs, or the error.
private func parse(_ text: String, limits: HTTPLimits = HTTPLimits()) -> Result<[BufferedRequestParser.Output], HTTPParseError> {
    var parser = BufferedRequestParser(limits: limits)
    do throws(HTTPParseError) {
        return .success(try parser.feed(Array(text.utf8)))
    } catch {
        return .failure(error)
    }
}

/// The status the parser rejects `text` with, or nil when it accepts it.
private func rejection(_ text: String, limits: HTTPLimits = HTTPLimits()) -> Int? {
    if case .failure(let error) = parse(text, limits: limits) { return error.status.code }
    return nil
}

private func heads(_ outputs: [BufferedRequestParser.Output]) -> [RequestHead] {
    outputs.compactMap { if case .head(let head) = $0 { head } else { nil } }
}

private func bodyBytes(_ outputs: [BufferedRequestParser.Output]) -> [UInt8] {
    Array(outputs.compactMap { if case .body(let bytes) = $0 { bytes } else { nil } }.joined())
}

@Suite struct RequestParserTests {
    @Test func simpleGet() throws {
        let outputs = try parse("GET /notes/42?x=1 HTTP/1.1\r\nHost: a\r\nX-Thing:  v a l \t\r\n\r\n").get()
        #expect(outputs.count == 2)
        let head = try #require(heads(outputs).first)
        #expect(head.method == .get)
        #expect(head.target == "/notes/42?x=1")
        #expect(head.version == .http1_1)
        #expect(head.headers["x-thing"] == "v a l")
        #expect(head.headers["HOST"] == "a")
        #expect(head.framing == .none)
        #expect(head.keepAlive)
        #expect(outputs.last == .end)
    }

    @Test func contentLengthBodyAndPipelining() throws {
        let text = "POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhelloGET /b HTTP/1.1\r\nHost: a\r\n\r\n"
        let outputs = try parse(text).get()
        #expect(heads(outputs).map(\.target) == ["/a", "/b"])
        #expect(outputs[1] == .body(Array("hello".utf8)))
        #expect(outputs.filter { $0 == .end }.count == 2)
    }

    @Test func chunkedBodyWithExtensionsAndTrailers() throws {
        let text =
            "POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;name=value\r\nhello\r\n6\r\n world\r\n0\r\nChecksum: abc\r\n\r\n"
        let outputs = try parse(text).get()
        #expect(heads(outputs).first?.framing == .chunked)
        #expect(outputs.dropFirst().first == .body(Array("hello world".utf8)))
        #expect(outputs.last == .end)
    }

    @Test func byteByByteFeedingGivesTheSameEvents() throws {
        let text =
            "\r\nPOST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
            + "GET /b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"
        let whole = try parse(text).get()
        var parser = BufferedRequestParser()
        var pieces: [BufferedRequestParser.Output] = []
        for byte in text.utf8 {
            for output in try parser.feed([byte]) {
                if case .body(let more) = output, case .body(let previous)? = pieces.last {
                    pieces[pieces.count - 1] = .body(previous + more)
                } else {
                    pieces.append(output)
                }
            }
        }
        #expect(pieces == whole)
        #expect(heads(whole).count == 2)
        #expect(heads(whole).last?.keepAlive == true)
        #expect(heads(whole).last?.version == .http1_0)
    }

    @Test func validHostForms() throws {
        for host in ["example.com", "example.com:8080", "127.0.0.1:1", "[::1]:8080", ""] {
            #expect(rejection("GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n") == nil, "\(host)")
        }
    }

    @Test func connectionSemantics() throws {
        #expect(try heads(parse("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n").get())[0].keepAlive == false)
        #expect(try heads(parse("GET / HTTP/1.0\r\n\r\n").get())[0].keepAlive == false)
        #expect(try heads(parse("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n").get())[0].keepAlive == true)
        let expect = try heads(parse("PUT / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n").get())[0]
        #expect(expect.expectsContinue)
    }

    @Test(arguments: [
        ("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: +5\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 5, 5\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n00000000000000001\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffff\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\nX: a\r\n b\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost : a\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHo st: a\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\nX: a\u{0}b\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n", 400),
        ("GET / HTTP/1.1\nHost: a\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\n\r\n", 400),
        ("GET / HTTP/1.1\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: evil.com/x\r\n\r\n", 400),
        ("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501),
        ("GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505),
        ("GET / HTTP/1.2\r\nHost: a\r\n\r\n", 505),
        ("GET / HTTX/1.1\r\nHost: a\r\n\r\n", 400),
        ("GET  / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        ("G(T / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\n Host: a\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 8388609\r\n\r\n", 413),
    ])
    func rejects(text: String, status: Int) {
        #expect(rejection(text) == status, "\(text.debugDescription)")
    }

    @Test func limits() {
        var limits = HTTPLimits()
        limits.maxRequestLineLength = 100
        limits.maxHeaderFieldLength = 100
        limits.maxHeaderSectionLength = 300
        limits.maxHeaderCount = 5
        limits.maxBodyLength = 10
        let longTarget = "GET /" + String(repeating: "a", count: 100) + " HTTP/1.1\r\n"
        #expect(rejection(longTarget, limits: limits) == 414)
        // Without an end of line the limit still applies: no unbounded buffering.
        #expect(rejection(String(longTarget.prefix(103)), limits: limits) == 414)
        #expect(rejection("GET / HTTP/1.1\r\nX: " + String(repeating: "v", count: 100) + "\r\n", limits: limits) == 431)
        let fields = (0..<6).map { "X\($0): v\r\n" }.joined()
        #expect(rejection("GET / HTTP/1.1\r\nHost: a\r\n" + fields + "\r\n", limits: limits) == 431)
        let big = (0..<4).map { "X\($0): " + String(repeating: "v", count: 90) + "\r\n" }.joined()
        #expect(rejection("GET / HTTP/1.1\r\n" + big, limits: limits) == 431)
        #expect(rejection("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n", limits: limits) == 413)
        #expect(rejection("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n0123456789", limits: limits) == nil)
        let chunked = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n5\r\nabcde\r\n"
        #expect(rejection(chunked, limits: limits) == 413)
    }

    /// `parse(_:bodyLimit:)`: the limit is asked per head, replaces `maxBodyLength` for that
    /// request only (Content-Length and chunked alike), and the next request is back to its own.
    @Test func bodyLimitIsDecidedPerHead() throws {
        var limits = HTTPLimits()
        limits.maxBodyLength = 10
        var parser = RequestParser(limits: limits)
        let text =
            "PUT /big HTTP/1.1\r\nHost: a\r\nContent-Length: 20\r\n\r\n" + String(repeating: "x", count: 20)
            + "PUT /big HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n" + String(repeating: "y", count: 16)
            + "\r\n4\r\nyyyy\r\n0\r\n\r\n"
            + "PUT /small HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n"
        let bytes = Array(text.utf8)
        var offset = 0
        var targets: [String] = []
        var bodies = 0
        var failure: HTTPParseError?
        loop: while true {
            do throws(HTTPParseError) {
                let step = try bytes[offset...].withUnsafeBufferPointer { buffer throws(HTTPParseError) in
                    try parser.parse(buffer) { head in
                        targets.append(head.target)
                        return head.target == "/big" ? 20 : limits.maxBodyLength
                    }
                }
                offset += step.consumed
                if case .body(let range)? = step.event { bodies += range.count }
                if step.event == nil && step.consumed == 0 { break loop }
            } catch {
                failure = error
                break loop
            }
        }
        #expect(targets == ["/big", "/big", "/small"])
        #expect(bodies == 40)
        #expect(failure?.status == .contentTooLarge)
        #expect(failure?.reason == "Content-Length 11 exceeds 10")

        var chunked = RequestParser(limits: limits)
        let over = Array(
            ("PUT /big HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n" + String(repeating: "y", count: 16)
                + "\r\n5\r\n").utf8)
        var position = 0
        var chunkedFailure: HTTPParseError?
        while chunkedFailure == nil && position < over.count {
            do throws(HTTPParseError) {
                let step = try over[position...].withUnsafeBufferPointer { buffer throws(HTTPParseError) in
                    try chunked.parse(buffer) { _ in 20 }
                }
                if step.event == nil && step.consumed == 0 { break }
                position += step.consumed
            } catch {
                chunkedFailure = error
            }
        }
        #expect(chunkedFailure?.status == .contentTooLarge)
        #expect(chunkedFailure?.reason == "chunked body exceeds 20 bytes")
    }

    @Test func errorOffsetPointsAtTheOffendingByte() {
        guard case .failure(let error) = parse("GET / HTTP/1.1\r\nHost: a\r\nBad Name: x\r\n\r\n") else {
            Issue.record("accepted a field name with a space")
            return
        }
        #expect(error.offset == 28)
        #expect(error.status == .badRequest)
    }

    @Test func failedParserStaysFailed() {
        var parser = BufferedRequestParser()
        #expect(throws: HTTPParseError.self) { try parser.feed(Array("GET / HTTP/9.9\r\n".utf8)) }
        #expect(throws: HTTPParseError.self) { try parser.feed(Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8)) }
    }

    @Test func roundTrip() throws {
        let requests = [
            "GET /a/b?c=d HTTP/1.1\r\nHost: example\r\nAccept: */*\r\n\r\n",
            "POST /notes/42/clone HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\nX-Request-ID: abc\r\n\r\n{\"x\":[1,2]}",
            "PUT /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n3;e=1\r\ncde\r\n0\r\nT: 1\r\n\r\n",
            "OPTIONS * HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
        ]
        for text in requests {
            let first = try parse(text).get()
            let head = try #require(heads(first).first)
            let body = bodyBytes(first)
            let again = try parse(String(decoding: head.serialized(body: body), as: UTF8.self)).get()
            #expect(heads(again) == [head])
            #expect(bodyBytes(again) == body)
        }
    }
}
