import ClonerHTTP

/// What a seed's file name promises about it, so the committed corpus doubles as a conformance
/// table: `accept-<what>.http` must parse into complete requests using every byte, and
/// `reject-<status>-<what>.http` must be refused with that status, under the default limits.
/// Other names (inputs libFuzzer saved, crash files) promise nothing beyond the invariants.
enum SeedExpectation: Equatable {
    case accept
    case reject(status: Int)
    case none

    init(fileName: String) {
        let parts = fileName.split(separator: "-", maxSplits: 2)
        if parts.first == "accept" {
            self = .accept
        } else if parts.first == "reject", parts.count == 3, let status = Int(parts[1]) {
            self = .reject(status: status)
        } else {
            self = .none
        }
    }

    /// Nil when `input` keeps the promise, else what went wrong.
    func violation(for input: UnsafeBufferPointer<UInt8>) -> String? {
        let transcript = ParseTranscript.parse(input, cuts: [], limits: HTTPLimits())
        switch self {
        case .none:
            return nil
        case .accept:
            if let error = transcript.error { return "expected acceptance, got \(error)" }
            if transcript.requests.isEmpty || transcript.requests.contains(where: { !$0.isComplete }) {
                return "expected complete requests, got:\n\(transcript)"
            }
            if transcript.consumed != input.count {
                return "expected every byte consumed, \(transcript.consumed) of \(input.count) were"
            }
            return nil
        case .reject(let status):
            guard let error = transcript.error else { return "expected \(status), was accepted:\n\(transcript)" }
            return error.status.code == status ? nil : "expected \(status), got \(error)"
        }
    }
}
