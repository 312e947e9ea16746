/// `RequestParser` with its own byte buffer, for callers that get bytes in arbitrary pieces and
/// want whole events back: tests, fuzzers, tools. The server itself drives `RequestParser`
/// directly over its connection buffer to avoid the copies this type makes.
public struct BufferedRequestParser: Sendable {
    public enum Output: Sendable, Equatable {
        case head(RequestHead)
        case body([UInt8])
        case end
    }

    public private(set) var parser: RequestParser
    private var pending: [UInt8] = []

    public init(limits: HTTPLimits = HTTPLimits()) {
        parser = RequestParser(limits: limits)
    }

    /// Bytes received but not consumed yet (an incomplete line or head).
    public var bufferedByteCount: Int { pending.count }

    /// Appends `bytes` and returns every event they complete, in order. Adjacent body pieces are
    /// merged. After an error the parser stays failed: every later call throws the same error.
    public mutating func feed(_ bytes: some Sequence<UInt8>) throws(HTTPParseError) -> [Output] {
        pending.append(contentsOf: bytes)
        var outputs: [Output] = []
        var consumedTotal = 0
        var failure: HTTPParseError?
        pending.withUnsafeBufferPointer { all in
            while true {
                let rest = UnsafeBufferPointer(rebasing: all[consumedTotal...])
                let step: RequestParser.Step
                do throws(HTTPParseError) {
                    step = try parser.parse(rest)
                } catch {
                    failure = error
                    return
                }
                switch step.event {
                case .head(let head)?:
                    outputs.append(.head(head))
                case .body(let range)?:
                    let piece = Array(rest[range])
                    if case .body(let previous)? = outputs.last {
                        outputs[outputs.count - 1] = .body(previous + piece)
                    } else {
                        outputs.append(.body(piece))
                    }
                case .end?:
                    outputs.append(.end)
                case nil:
                    break
                }
                consumedTotal += step.consumed
                if step.event == nil && step.consumed == 0 { return }
            }
        }
        pending.removeFirst(consumedTotal)
        if let failure { throw failure }
        return outputs
    }
}
