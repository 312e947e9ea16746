import Foundation
import ClonerConcurrency
#if canImport(Glibc)
import Glibc
#endif

/// The lines a child process writes to one pipe, read on a thread of their own so the child never
/// blocks on a full pipe, kept for the test to search.
package final class ServiceOutput: Sendable {
    package init() {}

    private struct State {
        package var lines: [String] = []
        var partial: [UInt8] = []
        var closed = false
    }
    private let state = LockedValue(State())

    /// Reads `descriptor` until end of file on a dedicated thread (not the cooperative pool, which
    /// blocking reads would starve).
    ///
    /// It reads a `dup` of the descriptor that it closes itself at end of file, so a `Pipe` released
    /// meanwhile can't leave it reading a number the process has handed to another socket.
    package func startReading(_ pipeDescriptor: Int32) {
        let descriptor = dup(pipeDescriptor)
        precondition(descriptor >= 0, "dup failed: \(errno)")
        let thread = Thread { [self] in
            defer { close(descriptor) }
            var buffer = [UInt8](repeating: 0, count: 16384)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                append(buffer[0..<count])
            }
            state.withLock { state in
                if !state.partial.isEmpty { state.lines.append(String(decoding: state.partial, as: UTF8.self)) }
                state.partial = []
                state.closed = true
            }
        }
        thread.start()
    }

    private func append(_ bytes: ArraySlice<UInt8>) {
        state.withLock { state in
            for byte in bytes {
                if byte == UInt8(ascii: "\n") {
                    state.lines.append(String(decoding: state.partial, as: UTF8.self))
                    state.partial.removeAll(keepingCapacity: true)
                } else {
                    state.partial.append(byte)
                }
            }
        }
    }

    package var lines: [String] { state.withLock { $0.lines } }
    package var isClosed: Bool { state.withLock { $0.closed } }
    package var text: String { lines.joined(separator: "\n") }

    /// The JSON log lines (objects); other lines are skipped.
    package var jsonLines: [[String: Any]] {
        lines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    /// Polls (bounded, without blocking a thread) until a JSON line satisfies `match`.
    package func jsonLine(within timeout: Duration, where match: ([String: Any]) -> Bool) async -> [String: Any]? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let line = jsonLines.first(where: match) { return line }
            if isClosed { return jsonLines.first(where: match) }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// Polls (bounded) until a JSON line satisfies `match`; nil on timeout or end of output.
    package func waitForJSONLine(timeout: Duration, where match: ([String: Any]) -> Bool) -> [String: Any]? {
        let deadline = ContinuousClock.now + timeout
        var checked = 0
        while ContinuousClock.now < deadline {
            let current = lines
            for line in current[checked...] {
                if let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any], match(object) {
                    return object
                }
            }
            checked = current.count
            if isClosed && lines.count == checked { return nil }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return nil
    }
}
