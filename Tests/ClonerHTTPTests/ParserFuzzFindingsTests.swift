import Testing
import ClonerHTTP

/// Reproducers for what http-parser-fuzz found (Tests/Fuzz/FINDINGS.md), both fixed: they keep the
/// parser from sliding back.
@Suite struct ParserFuzzFindingsTests {
    /// Parses `bytes` in one piece: the heads it framed and the error it stopped at.
    private func parse(_ bytes: [UInt8], limits: HTTPLimits = HTTPLimits()) -> (heads: [RequestHead], error: HTTPParseError?) {
        var parser = BufferedRequestParser(limits: limits)
        do throws(HTTPParseError) {
            let outputs = try parser.feed(bytes)
            return (outputs.compactMap { if case .head(let head) = $0 { head } else { nil } }, nil)
        } catch {
            return ([], error)
        }
    }

    /// F1: obs-text that is not UTF-8 (RFC 9110 §5.5 allows the bytes) reaches handlers as
    /// U+FFFD, so the value a handler sees is not the value on the wire, and it grows three bytes
    /// per bad byte when forwarded or re-serialised.
    @Test func fieldValueBytesThatAreNotUTF8AreKeptOrRefused() {
        let value: [UInt8] = Array("caf".utf8) + [0xE9, 0xFF]
        let request = Array("GET / HTTP/1.1\r\nHost: a\r\nX-Name: ".utf8) + value + Array("\r\n\r\n".utf8)
        let (heads, error) = parse(request)
        #expect(heads.isEmpty)
        #expect(error?.status == .badRequest)
        #expect(error?.reason == "field value is not valid UTF-8")
        #expect(error?.offset == 33, "the value's first byte")
        // Valid UTF-8 obs-text is kept as sent.
        let accepted = parse(Array("GET / HTTP/1.1\r\nHost: a\r\nX-Name: café\r\n\r\n".utf8))
        #expect(accepted.heads.first?.headers["x-name"] == "café")
    }

    /// F2: when a field line filled the header-section budget to within 2 bytes, the section
    /// length (which counts CRLFs) ended up past the limit, the next line's length limit turned
    /// negative, and the 431 pointed up to 2 bytes before that line. Each line's CRLF is now
    /// budgeted, so the line that does not fit is refused, at the first byte past the budget.
    @Test func headerSectionOverflowPointsAtTheRefusedLine() {
        var limits = HTTPLimits()
        limits.maxHeaderSectionLength = 20
        // Request line 16 bytes; "Host: a\r\n" 9 and "X: 12345678\r\n" 13 make a 22-byte section.
        let request = Array("GET / HTTP/1.1\r\nHost: a\r\nX: 12345678\r\n\r\n".utf8)
        let (heads, error) = parse(request, limits: limits)
        #expect(heads.isEmpty)
        #expect(error?.status == .requestHeaderFieldsTooLarge)
        // "X: 12345678" starts at byte 25; with 9 bytes used and 2 kept for its CRLF, 9 remain.
        #expect(error?.offset == 34)
    }
}
