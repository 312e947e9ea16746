import Foundation

/// The access log's lines, held per event loop until the loop's iteration ends, then written to
/// the log output in one `write(2)` for every request the iteration served.
///
/// One line per request written straight away cost a system call and a contended lock per
/// request: the two loops' lines meet at one output (`strace` of `/healthz`: a `write` and a
/// `futex` per request beside its `read` and `sendmsg`). Lines still go out before the loop
/// waits again, and whole: the output's lock is held for the whole batch.
final class AccessLogBuffer: Sendable {
    /// One loop's pending lines. `@unchecked Sendable`: only its own loop's thread touches it
    /// (`append` from the access-log hook, `flush` from the iteration-end hook, both on that
    /// thread), so it needs no lock.
    private final class LoopLines: @unchecked Sendable {
        var bytes: [UInt8] = []
    }

    /// Past this, an iteration's lines are written before it ends (memory stays bounded under a
    /// burst of pipelined requests).
    static let flushThreshold = 64 * 1024

    private let loops: [LoopLines]
    private let output: JSONLogHandler.LineOutput

    init(loopCount: Int, fileDescriptor: Int32 = STDOUT_FILENO) {
        precondition(loopCount > 0, "an HTTP server has at least one event loop")
        loops = (0..<loopCount).map { _ in LoopLines() }
        output = JSONLogHandler.LineOutput.shared(for: fileDescriptor)
    }

    /// On loop `loop`'s thread.
    func append(_ line: [UInt8], loop: Int) {
        precondition(loops.indices.contains(loop), "access-log record from loop \(loop) of \(loops.count)")
        let lines = loops[loop]
        lines.bytes.append(contentsOf: line)
        if lines.bytes.count >= Self.flushThreshold { flush(loop: loop) }
    }

    /// On loop `loop`'s thread, at the end of its iteration.
    func flush(loop: Int) {
        let lines = loops[loop]
        guard !lines.bytes.isEmpty else { return }
        output.write(lines.bytes)
        lines.bytes.removeAll(keepingCapacity: true)
    }
}
