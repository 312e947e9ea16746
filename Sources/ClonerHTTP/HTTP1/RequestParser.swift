#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An incremental HTTP/1.1 request parser (RFC 9112), pure: no I/O, no clock, no allocation
/// beyond the strings of the head it returns.
///
/// The caller owns the bytes. It passes the bytes not yet consumed to `parse(_:)`, drops the
/// `consumed` prefix the step reports, and acts on the step's event. A step with no event and
/// nothing consumed means "need more bytes": call again with the same unconsumed bytes plus
/// whatever arrived since (the parser remembers how far it already scanned the current line).
/// Call again after every event, even with no bytes: `.end` is reported as its own step.
///
/// It is strict in the way llhttp and SwiftNIO are, because leniency in framing is what makes
/// request smuggling possible: anything ambiguous is an `HTTPParseError` with the status to
/// answer, after which the parser stays failed and the connection must close.
public struct RequestParser: Sendable {
    public enum Event: Sendable, Equatable {
        /// A complete, validated request head; body events (if any) and `.end` follow.
        case head(RequestHead)
        /// Body bytes at this range of the buffer passed to the call that returned the step
        /// (chunk framing already removed).
        case body(Range<Int>)
        /// The request is complete; the next bytes belong to the next request.
        case end
    }

    public struct Step: Sendable, Equatable {
        /// Bytes at the front of the buffer the caller must now drop.
        public var consumed: Int
        public var event: Event?
    }

    private enum State: Sendable {
        case requestLine
        case headerFields
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case bodyEnd
        case failed(HTTPParseError)
    }

    public let limits: HTTPLimits
    private var state: State = .requestLine
    /// Stream offset of the first byte of the buffer the next call receives; errors report
    /// stream offsets so a fuzzer or a log line can point at the offending byte.
    private var streamOffset = 0
    /// How many bytes of the current, still incomplete line were already searched for LF.
    private var scanned = 0
    private var head = RequestHead(method: .get, target: "", version: .http1_1, headers: [:])
    private var headerSectionLength = 0
    private var bodyLength = 0
    /// The current request's body limit (see `parse(_:bodyLimit:)`).
    private var bodyLimit = 0

    public init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
    }

    /// Total bytes consumed since the parser was created: the stream offset of the next byte.
    public var offset: Int { streamOffset }

    /// True between requests: no byte of a next request has been consumed yet. The server uses it
    /// to tell an idle keep-alive connection from one in the middle of a request.
    public var isIdle: Bool {
        if case .requestLine = state { return scanned == 0 }
        return false
    }

    /// Parses at most one event's worth of `buffer`, with `limits.maxBodyLength` for every body.
    public mutating func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) -> Step {
        let limit = limits.maxBodyLength
        return try parse(buffer) { _ in limit }
    }

    /// Parses at most one event's worth of `buffer`; `bodyLimit` gives the largest body the
    /// request with this head (method, target and fields known, framing not yet) may send. It is
    /// asked once per head, before the framing checks, so a route that streams large bodies can
    /// allow more than `limits.maxBodyLength` and a Content-Length over its limit is still refused
    /// before any body byte is read.
    public mutating func parse(
        _ buffer: UnsafeBufferPointer<UInt8>, bodyLimit: (RequestHead) -> Int
    ) throws(HTTPParseError) -> Step {
        do {
            let step = try advance(buffer, bodyLimit: bodyLimit)
            streamOffset += step.consumed
            return step
        } catch {
            state = .failed(error)
            throw error
        }
    }

    private mutating func advance(
        _ buffer: UnsafeBufferPointer<UInt8>, bodyLimit: (RequestHead) -> Int
    ) throws(HTTPParseError) -> Step {
        switch state {
        case .failed(let error):
            throw error
        case .requestLine:
            return try parseRequestLine(buffer)
        case .headerFields:
            return try parseHeaderLine(buffer, bodyLimit: bodyLimit)
        case .fixedBody(let remaining):
            let count = min(remaining, buffer.count)
            if count == 0 { return Step(consumed: 0, event: nil) }
            state = remaining == count ? .bodyEnd : .fixedBody(remaining: remaining - count)
            return Step(consumed: count, event: .body(0..<count))
        case .chunkSize:
            return try parseChunkSize(buffer)
        case .chunkData(let remaining):
            let count = min(remaining, buffer.count)
            if count == 0 { return Step(consumed: 0, event: nil) }
            state = remaining == count ? .chunkDataEnd : .chunkData(remaining: remaining - count)
            return Step(consumed: count, event: .body(0..<count))
        case .chunkDataEnd:
            // RFC 9112 §7.1: chunk-data is followed by exactly CRLF.
            guard buffer.count >= 2 else {
                if buffer.count == 1 && buffer[0] != cr { throw error(.badRequest, "chunk data not followed by CRLF", at: 0) }
                return Step(consumed: 0, event: nil)
            }
            guard buffer[0] == cr, buffer[1] == lf else {
                throw error(.badRequest, "chunk data not followed by CRLF", at: 0)
            }
            state = .chunkSize
            return Step(consumed: 2, event: nil)
        case .trailers:
            return try parseTrailerLine(buffer)
        case .bodyEnd:
            state = .requestLine
            headerSectionLength = 0
            bodyLength = 0
            return Step(consumed: 0, event: .end)
        }
    }

    // MARK: Lines

    /// Finds the end of the line starting at the front of `buffer`. Returns the length of the line
    /// without its CRLF, or nil when the line is not complete yet (and `limit` not exceeded).
    /// RFC 9112 §2.2: a bare LF is not accepted as a line terminator (a lenient recipient and a
    /// strict one would disagree on where the head ends); a CR not followed by LF is rejected.
    private mutating func lineLength(
        in buffer: UnsafeBufferPointer<UInt8>, limit: Int, tooLong: (Int) -> HTTPParseError
    ) throws(HTTPParseError) -> Int? {
        guard let base = buffer.baseAddress, buffer.count > scanned else {
            return nil
        }
        let searchEnd = min(buffer.count, limit + 2)
        guard searchEnd > scanned, let found = memchr(base + scanned, Int32(lf), searchEnd - scanned) else {
            if buffer.count > limit + 1 { throw tooLong(limit) }
            scanned = max(scanned, min(buffer.count, searchEnd))
            return nil
        }
        let lfIndex = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        scanned = 0
        guard lfIndex > 0, buffer[lfIndex - 1] == cr else {
            throw error(.badRequest, "bare LF line ending", at: lfIndex)
        }
        let length = lfIndex - 1
        if length > limit { throw tooLong(limit) }
        return length
    }

    // MARK: Request line (RFC 9112 §3)

    private mutating func parseRequestLine(_ buffer: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) -> Step {
        let limit = limits.maxRequestLineLength
        let offset = streamOffset
        guard
            let length = try lineLength(
                in: buffer, limit: limit,
                tooLong: { limit in
                    HTTPParseError(status: .uriTooLong, reason: "request line longer than \(limit) bytes", offset: offset + limit)
                })
        else {
            return Step(consumed: 0, event: nil)
        }
        // RFC 9112 §2.2: a server SHOULD ignore at least one empty line received before the request-line.
        if length == 0 { return Step(consumed: 2, event: nil) }
        let line = UnsafeBufferPointer(rebasing: buffer[0..<length])

        // method = token, followed by exactly one SP.
        var index = 0
        while index < line.count, isTokenByte(line[index]) { index += 1 }
        guard index > 0, index < line.count, line[index] == space else {
            throw error(.badRequest, "malformed method in request line", at: index)
        }
        let method = HTTPMethod(string(line, 0..<index))

        // request-target: visible ASCII only (RFC 9112 §3.2; whitespace inside is a 400, §3).
        let targetStart = index + 1
        index = targetStart
        while index < line.count, line[index] > space, line[index] < 0x7F { index += 1 }
        guard index > targetStart, index < line.count, line[index] == space else {
            throw error(.badRequest, "malformed request-target", at: index)
        }
        try checkPercentEncoding(UnsafeBufferPointer(rebasing: line[targetStart..<index]), at: offset + targetStart)
        let target = string(line, targetStart..<index)

        // HTTP-version = "HTTP/" DIGIT "." DIGIT (RFC 9112 §2.3), case-sensitive.
        let versionStart = index + 1
        let version = UnsafeBufferPointer(rebasing: line[versionStart...])
        guard version.count == 8,
            version[0] == UInt8(ascii: "H"), version[1] == UInt8(ascii: "T"),
            version[2] == UInt8(ascii: "T"), version[3] == UInt8(ascii: "P"),
            version[4] == UInt8(ascii: "/"), isDigit(version[5]),
            version[6] == UInt8(ascii: "."), isDigit(version[7])
        else {
            throw error(.badRequest, "malformed HTTP version", at: versionStart)
        }
        let major = Int(version[5] - UInt8(ascii: "0")), minor = Int(version[7] - UInt8(ascii: "0"))
        guard major == 1, minor <= 1 else {
            throw error(.httpVersionNotSupported, "HTTP/\(major).\(minor) is not supported", at: versionStart)
        }

        head = RequestHead(
            method: method, target: target, version: HTTPVersion(major: major, minor: minor), headers: HTTPHeaders())
        headerSectionLength = 0
        state = .headerFields
        return Step(consumed: length + 2, event: nil)
    }

    /// RFC 3986 §2.1: `pct-encoded = "%" HEXDIG HEXDIG`; a `%` followed by anything else makes
    /// the target an invalid URI (RFC 9112 §3.2: 400). Rejected here, with the place named,
    /// rather than decoded into something the client did not mean (`?name=%zz`).
    private func checkPercentEncoding(_ target: UnsafeBufferPointer<UInt8>, at targetOffset: Int) throws(HTTPParseError) {
        var inQuery = false
        var index = 0
        while index < target.count {
            let byte = target[index]
            if byte == UInt8(ascii: "?") { inQuery = true }
            if byte == UInt8(ascii: "%") {
                guard index + 2 < target.count, isHexDigit(target[index + 1]), isHexDigit(target[index + 2]) else {
                    let end = min(target.count, index + 3)
                    let escape = string(target, index..<end)
                    throw HTTPParseError(
                        status: .badRequest,
                        reason:
                            "invalid percent-encoding \"\(escape)\" in the \(inQuery ? "query" : "path") of the request-target: % must be followed by two hex digits",
                        offset: targetOffset + index)
                }
                index += 3
                continue
            }
            index += 1
        }
    }

    private func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }

    // MARK: Header section (RFC 9112 §5)

    private mutating func parseHeaderLine(
        _ buffer: UnsafeBufferPointer<UInt8>, bodyLimit: (RequestHead) -> Int
    ) throws(HTTPParseError) -> Step {
        let limit = sectionLineLimit()
        let offset = streamOffset, fieldLimit = limits.maxHeaderFieldLength
        guard
            let length = try lineLength(
                in: buffer, limit: limit,
                tooLong: { limit in
                    HTTPParseError(
                        status: .requestHeaderFieldsTooLarge,
                        reason: limit < fieldLimit ? "header section too large" : "header field longer than \(limit) bytes",
                        offset: offset + limit)
                })
        else {
            return Step(consumed: 0, event: nil)
        }
        if length == 0 {
            return Step(consumed: 2, event: .head(try finishHead(bodyLimit: bodyLimit(head))))
        }
        guard head.headers.count < limits.maxHeaderCount else {
            throw error(.requestHeaderFieldsTooLarge, "more than \(limits.maxHeaderCount) header fields", at: 0)
        }
        let line = UnsafeBufferPointer(rebasing: buffer[0..<length])
        let field = try parseField(
            line,
            obsFoldReason: head.headers.isEmpty
                ? "whitespace before the first header field"  // RFC 9112 §2.2
                : "obsolete line folding")  // RFC 9112 §5.2
        head.headers.add(field.name, field.value)
        headerSectionLength += length + 2
        return Step(consumed: length + 2, event: nil)
    }

    private func parseField(_ line: UnsafeBufferPointer<UInt8>, obsFoldReason: String) throws(HTTPParseError) -> (name: String, value: String) {
        if line[0] == space || line[0] == tab {
            throw error(.badRequest, obsFoldReason, at: 0)
        }
        // field-name = token, then ":" with no whitespace before it (RFC 9112 §5.1).
        var index = 0
        while index < line.count, isTokenByte(line[index]) { index += 1 }
        guard index < line.count else { throw error(.badRequest, "header field without colon", at: index) }
        guard line[index] == colon else {
            let byte = line[index]
            if byte == space || byte == tab {
                throw error(.badRequest, "whitespace in header field name or before colon", at: index)
            }
            throw error(.badRequest, "invalid byte 0x\(String(byte, radix: 16)) in header field name", at: index)
        }
        guard index > 0 else { throw error(.badRequest, "empty header field name", at: 0) }
        let name = string(line, 0..<index)

        // field-value: VCHAR, obs-text, SP and HTAB; CR, LF, NUL and other controls are rejected
        // (RFC 9110 §5.5 lets a recipient reject them; replacing them would hide an attack).
        var start = index + 1
        while start < line.count, line[start] == space || line[start] == tab { start += 1 }
        var end = line.count
        while end > start, line[end - 1] == space || line[end - 1] == tab { end -= 1 }
        var position = start
        var hasObsText = false
        while position < end {
            let byte = line[position]
            if byte < space && byte != tab || byte == 0x7F {
                throw error(.badRequest, "control byte 0x\(String(byte, radix: 16)) in field value", at: position)
            }
            if byte >= 0x80 { hasObsText = true }
            position += 1
        }
        guard hasObsText else { return (name, string(line, start..<end)) }
        // obs-text (RFC 9110 §5.5) is only accepted as UTF-8: decoding other bytes would replace
        // them with U+FFFD, so a handler, a log line or a key check would see a value that is not
        // the one on the wire.
        guard let value = String(validating: UnsafeBufferPointer(rebasing: line[start..<end]), as: UTF8.self) else {
            throw error(.badRequest, "field value is not valid UTF-8", at: start)
        }
        return (name, value)
    }

    /// Decides framing and connection semantics once the whole header section is in.
    private mutating func finishHead(bodyLimit: Int) throws(HTTPParseError) -> RequestHead {
        let isHTTP11 = head.version == .http1_1
        var contentLength: Int?
        var transferCodings: [Substring] = []
        var hasTransferEncoding = false
        var hostCount = 0

        for field in head.headers {
            let name = field.name
            if name.equalsASCIICaseInsensitive("content-length") {
                // RFC 9112 §6.3 rule 5 / RFC 9110 §8.6: Content-Length = 1*DIGIT. A list ("5, 5"),
                // a sign, or a second field could be read differently by another hop: reject.
                guard contentLength == nil else { throw error(.badRequest, "more than one Content-Length", at: 0) }
                contentLength = try parseContentLength(field.value)
            } else if name.equalsASCIICaseInsensitive("transfer-encoding") {
                hasTransferEncoding = true
                for coding in field.value.split(separator: ",", omittingEmptySubsequences: true) {
                    let trimmed = coding.trimmingOWS()
                    if !trimmed.isEmpty { transferCodings.append(trimmed) }
                }
            } else if name.equalsASCIICaseInsensitive("expect") {
                // RFC 9110 §10.1.1: 100-continue is the only expectation defined; a server that
                // can't meet one answers 417. (Ignored on HTTP/1.0, as the RFC requires, below.)
                for member in field.value.split(separator: ",", omittingEmptySubsequences: true) {
                    let trimmed = member.trimmingOWS()
                    guard trimmed.equalsASCIICaseInsensitive("100-continue") else {
                        throw error(.expectationFailed, "unsupported expectation \"\(trimmed)\": only 100-continue is supported", at: 0)
                    }
                }
            } else if name.equalsASCIICaseInsensitive("host") {
                hostCount += 1
                // RFC 9112 §3.2: a Host with an invalid value is a 400 (Host = uri-host [ ":" port ]).
                guard field.value.utf8.allSatisfy(isHostByte) else {
                    throw error(.badRequest, "invalid Host header", at: 0)
                }
            }
        }

        // RFC 9112 §3.2: a 1.1 request without Host, or any request with more than one, is a 400.
        if hostCount > 1 { throw error(.badRequest, "duplicate Host header", at: 0) }
        if hostCount == 0 && isHTTP11 { throw error(.badRequest, "missing Host header", at: 0) }

        var framing = BodyFraming.none
        if hasTransferEncoding {
            // RFC 9112 §6.1: Transfer-Encoding in an HTTP/1.0 request means framing is faulty.
            if !isHTTP11 { throw error(.badRequest, "Transfer-Encoding in an HTTP/1.0 request", at: 0) }
            // RFC 9112 §6.3 rule 3: both headers are a smuggling attempt; reject rather than pick one.
            if contentLength != nil { throw error(.badRequest, "both Content-Length and Transfer-Encoding", at: 0) }
            guard let last = transferCodings.last, last.equalsASCIICaseInsensitive("chunked") else {
                // RFC 9112 §6.3 rule 4: the final coding of a request must be chunked.
                throw error(.badRequest, "Transfer-Encoding does not end with chunked", at: 0)
            }
            for coding in transferCodings.dropLast() {
                // RFC 9112 §7: chunked must not be applied more than once.
                if coding.equalsASCIICaseInsensitive("chunked") {
                    throw error(.badRequest, "chunked applied more than once", at: 0)
                }
            }
            if transferCodings.count > 1 {
                // RFC 9112 §6.1: a coding we do not implement answers 501.
                throw error(.notImplemented, "unsupported transfer coding \(transferCodings[0])", at: 0)
            }
            framing = .chunked
        } else if let contentLength {
            // Checked before any body byte is read, so an oversize upload costs nothing.
            if contentLength > bodyLimit {
                throw error(.contentTooLarge, "Content-Length \(contentLength) exceeds \(bodyLimit)", at: 0)
            }
            framing = contentLength == 0 ? .none : .contentLength(contentLength)
        }

        let keepAlive: Bool
        if head.headers.containsToken("close", in: "connection") {
            keepAlive = false
        } else {
            keepAlive = isHTTP11 || head.headers.containsToken("keep-alive", in: "connection")
        }
        let expects = isHTTP11 && (head.headers["expect"]?.equalsASCIICaseInsensitive("100-continue") ?? false)

        head.framing = framing
        head.keepAlive = keepAlive
        head.expectsContinue = expects && framing != .none
        switch framing {
        case .none: state = .bodyEnd
        case .contentLength(let length): state = .fixedBody(remaining: length)
        case .chunked: state = .chunkSize
        }
        bodyLength = 0
        self.bodyLimit = bodyLimit
        return head
    }

    private func parseContentLength(_ value: String) throws(HTTPParseError) -> Int {
        var result = 0
        var digits = 0
        for byte in value.utf8 {
            guard isDigit(byte) else { throw error(.badRequest, "invalid Content-Length \"\(value)\"", at: 0) }
            let (times10, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { throw error(.badRequest, "Content-Length overflows", at: 0) }
            result = sum
            digits += 1
        }
        guard digits > 0 else { throw error(.badRequest, "empty Content-Length", at: 0) }
        return result
    }

    // MARK: Chunked body (RFC 9112 §7.1)

    private mutating func parseChunkSize(_ buffer: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) -> Step {
        let offset = streamOffset
        guard
            let length = try lineLength(
                in: buffer, limit: limits.maxChunkLineLength,
                tooLong: { limit in
                    HTTPParseError(status: .badRequest, reason: "chunk-size line longer than \(limit) bytes", offset: offset + limit)
                })
        else {
            return Step(consumed: 0, event: nil)
        }
        var index = 0
        var size = 0
        while index < length, let digit = hexValue(buffer[index]) {
            // 16 hex digits hold any size we could accept; more is an overflow attempt.
            guard index < 16, size <= (Int.max - digit) / 16 else {
                throw error(.badRequest, "chunk size too large", at: index)
            }
            size = size * 16 + digit
            index += 1
        }
        guard index > 0 else { throw error(.badRequest, "missing chunk size", at: 0) }
        if index < length {
            // chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] ): we ignore
            // extensions but still refuse bytes that are not part of that grammar's alphabet.
            var position = index
            while position < length, buffer[position] == space || buffer[position] == tab { position += 1 }
            guard position < length, buffer[position] == semicolon else {
                throw error(.badRequest, "invalid character after chunk size", at: position)
            }
            while position < length {
                let byte = buffer[position]
                if byte < space && byte != tab || byte == 0x7F {
                    throw error(.badRequest, "control byte in chunk extension", at: position)
                }
                position += 1
            }
        }
        if size == 0 {
            state = .trailers
            headerSectionLength = 0
        } else {
            guard size <= bodyLimit - bodyLength else {
                throw error(.contentTooLarge, "chunked body exceeds \(bodyLimit) bytes", at: 0)
            }
            bodyLength += size
            state = .chunkData(remaining: size)
        }
        return Step(consumed: length + 2, event: nil)
    }

    /// Trailer fields (RFC 9112 §7.1.2) are validated like header fields and then dropped:
    /// nothing in this service reads them, and merging them into the head invites confusion.
    private mutating func parseTrailerLine(_ buffer: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) -> Step {
        let limit = sectionLineLimit()
        let offset = streamOffset
        guard
            let length = try lineLength(
                in: buffer, limit: limit,
                tooLong: { _ in
                    HTTPParseError(status: .requestHeaderFieldsTooLarge, reason: "trailer section too large", offset: offset + limit)
                })
        else {
            return Step(consumed: 0, event: nil)
        }
        if length == 0 {
            state = .bodyEnd
            return Step(consumed: 2, event: nil)
        }
        _ = try parseField(UnsafeBufferPointer(rebasing: buffer[0..<length]), obsFoldReason: "obsolete line folding in trailer")
        headerSectionLength += length + 2
        return Step(consumed: length + 2, event: nil)
    }

    // MARK: Helpers

    /// The longest next line (without its CRLF) the header or trailer section still has room for.
    /// The CRLF is budgeted too, so a line that fits leaves the section within its limit, and a
    /// refusal's offset is the start of the refused line, never before it.
    private func sectionLineLimit() -> Int {
        max(0, min(limits.maxHeaderFieldLength, limits.maxHeaderSectionLength - headerSectionLength - 2))
    }

    private func error(_ status: HTTPStatus, _ reason: String, at index: Int) -> HTTPParseError {
        HTTPParseError(status: status, reason: reason, offset: streamOffset + index)
    }

    private func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}

private let cr = UInt8(ascii: "\r")
private let lf = UInt8(ascii: "\n")
private let space = UInt8(ascii: " ")
private let tab = UInt8(ascii: "\t")
private let colon = UInt8(ascii: ":")
private let semicolon = UInt8(ascii: ";")

@inline(__always) private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
}

@inline(__always) private func hexValue(_ byte: UInt8) -> Int? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
}

/// tchar (RFC 9110 §5.6.2): the bytes allowed in methods and field names.
private let tokenTable: [Bool] = {
    var table = [Bool](repeating: false, count: 256)
    for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(byte)] = true }
    for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(byte)] = true }
    for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(byte)] = true }
    for byte in "!#$%&'*+-.^_`|~".utf8 { table[Int(byte)] = true }
    return table
}()

/// Bytes of uri-host [ ":" port ] (RFC 3986 §3.2.2): unreserved, pct-encoded, sub-delims, and
/// the brackets and colons of IP literals and ports. No "/", "?", "#", "@" or whitespace.
private func isHostByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        true
    default:
        "-._~%!$&'()*+,;=:[]".utf8.contains(byte)
    }
}

@inline(__always) private func isTokenByte(_ byte: UInt8) -> Bool {
    tokenTable[Int(byte)]
}
