import ClonerHTTP

/// The invariants one fuzz input is held to. Each input runs under two limit profiles: the
/// service defaults (docs/architecture.md#framing-and-limits) and a tiny one, so the 414/431/413 boundaries are reached
/// by inputs of a few dozen bytes instead of the 8 KiB lines a mutator rarely builds.
enum ParserFuzzCheck {
    static let limitProfiles: [HTTPLimits] = {
        var tiny = HTTPLimits()
        tiny.maxRequestLineLength = 64
        tiny.maxHeaderFieldLength = 48
        tiny.maxHeaderSectionLength = 160
        tiny.maxHeaderCount = 6
        tiny.maxBodyLength = 64
        tiny.maxChunkLineLength = 24
        return [HTTPLimits(), tiny]
    }()

    /// Inputs up to this size are also fed one byte at a time (the slowest client, and the one
    /// that exercises every "line not complete yet" resume point).
    static let byteByByteLimit = 512

    /// The router of the service's shape: reaching it with every accepted target checks that
    /// path extraction, percent-decoding and matching cope with whatever the parser lets through.
    static let router: Router = {
        var router = Router()
        let unused: @Sendable (HTTPRequest) throws -> HTTPResponse = { _ in HTTPResponse() }
        router.get("/healthz", unused)
        router.get("/{collection}", unused)
        router.get("/{collection}/{id}", unused)
        router.post("/{collection}/{id}/clone", unused)
        router.get("/jobs/{id}", unused)
        return router
    }()

    static func run(_ input: UnsafeBufferPointer<UInt8>) {
        for limits in limitProfiles {
            let whole = ParseTranscript.parse(input, cuts: [], limits: limits)
            fuzzCheck(whole.consumed <= input.count, "consumed \(whole.consumed) of \(input.count) bytes", whole)

            let cut = splitPoint(of: input)
            let split = ParseTranscript.parse(input, cuts: [cut], limits: limits)
            fuzzCheck(split == whole, "fed in two pieces split at \(cut), the parser saw:\n\(split)\ninstead of", whole)

            if input.count <= byteByByteLimit {
                let trickled = ParseTranscript.parse(input, cuts: Array(0..<input.count), limits: limits)
                fuzzCheck(trickled == whole, "fed one byte at a time, the parser saw:\n\(trickled)\ninstead of", whole)
            }

            checkBufferedParser(input, cut: cut, limits: limits, expected: whole)

            for request in whole.requests {
                if request.isComplete { checkRoundTrip(request, limits: limits) }
                checkRouting(request.head)
            }
        }
    }

    /// A split point that depends on every byte (FNV-1a), so mutations move it around and
    /// every offset gets its turn, while a saved input always replays the same split.
    static func splitPoint(of input: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in input {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return Int(hash % UInt64(input.count + 1))
    }

    /// A request re-serialised and parsed again must be the same request: the parser keeps
    /// nothing that serialisation loses, and accepts everything it would itself produce.
    static func checkRoundTrip(_ request: ParseTranscript.Request, limits: HTTPLimits) {
        let bytes = request.head.serialized(body: request.body)
        // The serialised head may be longer than the one received: `serialized` writes
        // "name: value" where "name:value" arrived, and invalid UTF-8 in a value came out of the
        // parser as U+FFFD, three bytes per bad byte (fuzz/FINDINGS.md, F1). Growing past a
        // length limit is not what this check is about, so those limits stretch to fit.
        var relaxed = limits
        relaxed.maxHeaderFieldLength = max(limits.maxHeaderFieldLength, bytes.count)
        relaxed.maxHeaderSectionLength = max(limits.maxHeaderSectionLength, bytes.count)
        let again = bytes.withUnsafeBufferPointer { ParseTranscript.parse($0, cuts: [], limits: relaxed) }
        let expected = ParseTranscript(requests: [request], error: nil, consumed: bytes.count)
        fuzzCheck(
            again == expected,
            "re-serialised as \(String(decoding: bytes, as: UTF8.self).debugDescription) it parsed as:\n\(again)\ninstead of",
            expected)
    }

    /// `BufferedRequestParser` (what tests and tools use) must frame exactly what the raw parser
    /// frames. Its `feed` throws away the events of a call that ends in an error, so on error
    /// only the error itself is compared.
    static func checkBufferedParser(_ input: UnsafeBufferPointer<UInt8>, cut: Int, limits: HTTPLimits, expected: ParseTranscript) {
        var parser = BufferedRequestParser(limits: limits)
        var transcript = ParseTranscript()
        do throws(HTTPParseError) {
            for piece in [input[..<cut], input[cut...]] {
                for output in try parser.feed(piece) {
                    switch output {
                    case .head(let head): transcript.requests.append(.init(head: head, body: [], isComplete: false))
                    case .body(let bytes): transcript.requests[transcript.requests.count - 1].body += bytes
                    case .end: transcript.requests[transcript.requests.count - 1].isComplete = true
                    }
                }
            }
            transcript.consumed = input.count - parser.bufferedByteCount
        } catch {
            fuzzCheck(error == expected.error, "BufferedRequestParser failed with \(error) instead of", expected)
            return
        }
        fuzzCheck(transcript == expected, "BufferedRequestParser saw:\n\(transcript)\ninstead of", expected)
    }

    static func checkRouting(_ head: RequestHead) {
        let request = HTTPRequest(method: head.method, target: head.target, version: head.version, headers: head.headers)
        _ = request.query
        _ = request.queryItems
        let segments = request.pathSegments
        fuzzCheck(!segments.contains(""), "an empty path segment in \(head.target)", head.target)
        if case .matched(_, _, let parameters) = router.resolve(head.method, path: request.path) {
            fuzzCheck(!parameters.values.contains(""), "an empty path parameter in \(head.target)", head.target)
        }
    }
}
