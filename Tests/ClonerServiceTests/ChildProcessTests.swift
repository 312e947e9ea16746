import ClonerTestSupport
import Foundation
import Testing

/// The service tests start `cloner` and their tools as `ChildProcess`es: each must run where and
/// with what the test says, and receive the signals a test sends it.
@Suite struct ChildProcessTests {
    @Test func theChildRunsInTheDirectoryAndEnvironmentGiven() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let output = directory.url.appendingPathComponent("out").path
        let child = try ChildProcess(
            "/bin/sh", ["-c", "printf '%s %s' \"$(pwd -P)\" \"$CHILD_VALUE\" > out"], environment: ["CHILD_VALUE": "given"],
            directory: directory.url.path)
        #expect(child.waitForExit(timeout: .seconds(30)))
        #expect(child.terminationStatus == 0 && !child.terminatedBySignal)
        let expected = directory.url.resolvingSymlinksInPath().path + " given"
        #expect((try? String(contentsOfFile: output, encoding: .utf8)) == expected)
    }

    @Test func theChildKeepsNoOtherDescriptorOfTheTestProcess() throws {
        // A file the test process holds open for writing (no close-on-exec), as a test copying a
        // binary it is about to run does: a child keeping it open makes running it "Text file busy".
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let descriptor = open(directory.url.appendingPathComponent("held").path, O_WRONLY | O_CREAT, 0o644)
        try #require(descriptor > 2)
        defer { close(descriptor) }
        let outcome = try ShortCommand.run("/bin/sh", ["-c", "if [ -e /proc/self/fd/\(descriptor) ]; then echo open; else echo closed; fi"])
        #expect(String(decoding: outcome.output, as: UTF8.self) == "closed\n")
    }

    @Test func aSignalBlockedInTheStartingThreadStillReachesTheChild() throws {
        // Started from a thread that blocks SIGTERM: without its mask emptied, the child would
        // inherit the block and never end.
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        let child = Result { try ChildProcess("/bin/sleep", ["30"]) }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        let sleeper = try child.get()
        defer { sleeper.killAndReap() }
        #expect(sleeper.isRunning)
        sleeper.signal(SIGTERM)
        #expect(sleeper.waitForExit(timeout: .seconds(10)))
        #expect(sleeper.terminatedBySignal && sleeper.terminationStatus == SIGTERM)
    }
}
