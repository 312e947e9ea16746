import ClonerHTTP

/// Everything a `RequestParser` made of a byte stream: the requests it framed (bodies merged,
/// however the bytes arrived), the error it stopped at, and how many bytes it consumed.
///
/// Two feedings of the same bytes must give equal transcripts: that is the incremental-parsing
/// invariant the fuzzer checks, so the transcript holds exactly what a caller can observe.
struct ParseTranscript: Equatable, CustomStringConvertible {
    struct Request: Equatable {
        var head: RequestHead
        var body: [UInt8]
        /// `.end` was reported: the request's framing is complete.
        var isComplete: Bool
    }

    var requests: [Request] = []
    var error: HTTPParseError?
    var consumed = 0

    var description: String {
        var lines = requests.map { request in
            "\(request.head.method) \(request.head.target) \(request.head.version) framing=\(request.head.framing) "
                + "keepAlive=\(request.head.keepAlive) continue=\(request.head.expectsContinue) "
                + "headers=\(request.head.headers.map { "\($0.name)=\($0.value)" }) body=\(request.body.count)B "
                + (request.isComplete ? "complete" : "incomplete")
        }
        lines.append("error=\(error.map(String.init(describing:)) ?? "none") consumed=\(consumed)")
        return lines.joined(separator: "\n")
    }

    /// Feeds `input` to a fresh parser in pieces that end at `cuts` (ascending offsets into
    /// `input`), driving it the way the server drives it over its connection buffer: keep the
    /// unconsumed bytes, append what arrives, parse until a step neither consumes nor reports.
    ///
    /// Checks the caller contract of every step on the way (a trap here is a finding): a step
    /// never consumes more than it was given, body ranges lie inside the consumed bytes, events
    /// come in the order head, body*, end, the parser's offset matches what was consumed, and a
    /// failed parser keeps failing with the same error.
    static func parse(_ input: UnsafeBufferPointer<UInt8>, cuts: [Int], limits: HTTPLimits) -> ParseTranscript {
        var parser = RequestParser(limits: limits)
        var transcript = ParseTranscript()
        var pending: [UInt8] = []
        pending.reserveCapacity(input.count)
        var pieceStart = 0
        for pieceEnd in cuts + [input.count] where pieceEnd >= pieceStart {
            pending.append(contentsOf: UnsafeBufferPointer(rebasing: input[pieceStart..<pieceEnd]))
            pieceStart = pieceEnd
            let consumedHere = pending.withUnsafeBufferPointer { all in
                transcript.drain(all, parser: &parser, limits: limits)
            }
            pending.removeFirst(consumedHere)
            transcript.consumed += consumedHere
            if transcript.error != nil { break }
        }
        fuzzCheck(
            pending.count == pieceStart - transcript.consumed || transcript.error != nil,
            "unconsumed byte count drifted", transcript)
        return transcript
    }

    /// Runs parser steps over `all` until it needs more bytes or fails; returns the bytes consumed.
    private mutating func drain(_ all: UnsafeBufferPointer<UInt8>, parser: inout RequestParser, limits: HTTPLimits) -> Int {
        var consumedHere = 0
        // Every step either consumes a byte or reports an event, and at most one `.end` per head
        // (which itself consumes bytes) can come without consuming: this bounds a correct parser.
        let stepBudget = 2 * all.count + 4
        for _ in 0..<stepBudget {
            let rest = UnsafeBufferPointer(rebasing: all[consumedHere...])
            let step: RequestParser.Step
            do throws(HTTPParseError) {
                step = try parser.parse(rest)
            } catch {
                self.error = error
                checkStaysFailed(&parser, with: error, rest: rest)
                return consumedHere
            }
            fuzzCheck(
                step.consumed >= 0 && step.consumed <= rest.count,
                "step consumed \(step.consumed) of \(rest.count) bytes", self)
            switch step.event {
            case .head(let head)?:
                fuzzCheck(step.consumed > 0, "a head consumed no bytes", self)
                fuzzCheck(requests.last?.isComplete ?? true, "a head arrived before the previous request's end", self)
                checkHead(head, limits: limits)
                requests.append(Request(head: head, body: [], isComplete: false))
            case .body(let range)?:
                fuzzCheck(
                    range.lowerBound >= 0 && range.upperBound <= step.consumed && !range.isEmpty,
                    "body range \(range) outside the \(step.consumed) consumed bytes", self)
                guard let open = requests.last, !open.isComplete, open.head.framing != .none else {
                    fuzzFail("body bytes outside a request with a body", self)
                }
                requests[requests.count - 1].body.append(contentsOf: rest[range])
            case .end?:
                guard let open = requests.last, !open.isComplete else { fuzzFail("end without a head", self) }
                requests[requests.count - 1].isComplete = true
                checkBody(of: requests[requests.count - 1], limits: limits)
                fuzzCheck(parser.isIdle, "parser not idle right after a request's end", self)
            case nil:
                if step.consumed == 0 { return consumedHere }
            }
            consumedHere += step.consumed
            fuzzCheck(
                parser.offset == consumed + consumedHere,
                "parser offset \(parser.offset) but \(consumed + consumedHere) bytes consumed", self)
        }
        fuzzFail("parser made no progress within \(stepBudget) steps over \(all.count) bytes", self)
    }

    /// After an error the parser must not resume: whatever follows could be a smuggled request.
    private func checkStaysFailed(_ parser: inout RequestParser, with error: HTTPParseError, rest: UnsafeBufferPointer<UInt8>) {
        // Known finding F2 (fuzz/FINDINGS.md): a 431 for the header or trailer section may point
        // up to 2 bytes back, into the previous line's CRLF. Tolerated so fuzzing goes on past it.
        let slack = error.status == .requestHeaderFieldsTooLarge ? 2 : 0
        fuzzCheck(error.offset >= consumed - slack, "error offset \(error.offset) before already consumed bytes", self)
        do throws(HTTPParseError) {
            _ = try parser.parse(rest)
            fuzzFail("a failed parser accepted bytes again", self)
        } catch let again {
            fuzzCheck(again == error, "a failed parser changed its error to \(again)", self)
        }
    }

    /// What every accepted head must satisfy whatever the bytes were (the framing rules of docs/architecture.md#framing-and-limits).
    private func checkHead(_ head: RequestHead, limits: HTTPLimits) {
        fuzzCheck(head.version == .http1_0 || head.version == .http1_1, "accepted \(head.version)", self)
        fuzzCheck(!head.method.rawValue.isEmpty && !head.target.isEmpty, "empty method or target accepted", self)
        fuzzCheck(head.headers.count <= limits.maxHeaderCount, "more than \(limits.maxHeaderCount) fields accepted", self)
        let hosts = head.headers.values("host").count
        fuzzCheck(hosts <= 1 && (hosts == 1 || head.version == .http1_0), "Host count \(hosts) accepted", self)
        let lengths = head.headers.values("content-length")
        let hasTransferEncoding = head.headers.contains("transfer-encoding")
        fuzzCheck(lengths.count <= 1, "several Content-Length fields accepted", self)
        fuzzCheck(lengths.isEmpty || !hasTransferEncoding, "Content-Length with Transfer-Encoding accepted", self)
        switch head.framing {
        case .none:
            fuzzCheck(!hasTransferEncoding, "Transfer-Encoding without chunked framing", self)
        case .contentLength(let length):
            fuzzCheck(
                length > 0 && length <= limits.maxBodyLength && lengths.count == 1,
                "Content-Length framing \(length) inconsistent with the fields", self)
        case .chunked:
            fuzzCheck(head.version == .http1_1 && hasTransferEncoding, "chunked framing without 1.1 Transfer-Encoding", self)
        }
        if head.headers.containsToken("close", in: "connection") {
            fuzzCheck(!head.keepAlive, "keep-alive despite Connection: close", self)
        }
        fuzzCheck(!head.expectsContinue || head.framing != .none, "100-continue for a request without a body", self)
    }

    private func checkBody(of request: Request, limits: HTTPLimits) {
        switch request.head.framing {
        case .none:
            fuzzCheck(request.body.isEmpty, "body bytes for a request without framing", self)
        case .contentLength(let length):
            fuzzCheck(request.body.count == length, "body of \(request.body.count) bytes for Content-Length \(length)", self)
        case .chunked:
            fuzzCheck(request.body.count <= limits.maxBodyLength, "chunked body over the limit accepted", self)
        }
    }
}
