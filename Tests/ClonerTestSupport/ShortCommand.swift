import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A short-lived command run to its end with its output kept, started with `posix_spawn` itself
/// rather than Foundation's `Process`.
///
/// On Linux, `Process.run()` lists `/proc/self/fd` to close the parent's descriptors in the child,
/// and copies each entry's whole 256-byte name field where glibc's record is a few bytes long:
/// with enough descriptors open that a listing fills glibc's buffer, as in a parallel test run,
/// the copy can run into an unmapped page and crash the whole test process (a full run crashed
/// so in `Process.run()` under a database shell; fixed in swift-corelibs-foundation after the
/// 6.3 toolchains). The service tests read their databases through these shells from 28 files,
/// in the suites that run in parallel, so they start here.
///
/// The command starts as a `ChildProcess` (standard input /dev/null, no other descriptor of the
/// test process), and its output and errors are read until both end.
package enum ShortCommand {
    package struct Outcome: Sendable {
        /// The exit status, or 128 + the signal that ended the command.
        package let status: Int32
        package let output: Data
        package let errors: Data
    }

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Runs `executable` (a path) with `arguments`; a command still running after `timeout` is
    /// killed and reported as a failure.
    package static func run(_ executable: String, _ arguments: [String], timeout: Duration = .seconds(60)) throws -> Outcome {
        // Made close-on-exec under the spawning lock, so no child started meanwhile inherits them.
        var output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        let piped = ChildProcess.spawning.withLock { () -> Bool in
            guard pipe(&output) == 0 else { return false }
            guard pipe(&errors) == 0 else {
                close(output[0])
                close(output[1])
                return false
            }
            for descriptor in output + errors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            return true
        }
        guard piped else { throw Failure(description: "pipe: errno \(errno)") }
        let child: ChildProcess
        do {
            child = try ChildProcess(executable, arguments, standardOutput: output[1], standardError: errors[1])
        } catch {
            for descriptor in output + errors { close(descriptor) }
            throw Failure(description: "\(error)")
        }
        close(output[1])
        close(errors[1])

        let deadline = ContinuousClock.now + timeout
        var collected = [Data(), Data()]
        var open = [output[0], errors[0]]
        var timedOut = false
        var buffer = [UInt8](repeating: 0, count: 65536)
        while open.contains(where: { $0 >= 0 }) {
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                timedOut = true
                break
            }
            var polled = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let milliseconds = Int32(min(left.components.seconds * 1_000 + 1, 1_000))
            let ready = poll(&polled, nfds_t(polled.count), milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready >= 0 else { break }
            for index in open.indices where open[index] >= 0 && polled[index].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(open[index], $0.baseAddress, $0.count) }
                if count > 0 {
                    collected[index].append(contentsOf: buffer[0..<count])
                } else if count == 0 || errno != EINTR {
                    close(open[index])
                    open[index] = -1
                }
            }
        }
        for descriptor in open where descriptor >= 0 { close(descriptor) }
        if timedOut { child.signal(SIGKILL) }
        guard child.waitForExit(timeout: timedOut ? .seconds(10) : max(deadline - ContinuousClock.now, .seconds(1))) else {
            child.killAndReap()
            throw Failure(description: "\(executable) closed its output but did not exit within \(timeout)")
        }
        if timedOut { throw Failure(description: "\(executable) did not finish within \(timeout)") }
        let status = child.terminatedBySignal ? 128 + child.terminationStatus : child.terminationStatus
        return Outcome(status: status, output: collected[0], errors: collected[1])
    }
}
