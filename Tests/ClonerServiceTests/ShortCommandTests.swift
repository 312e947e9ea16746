import ClonerTestSupport
import Foundation
import Testing

/// The database shells' spawner reports what a command did: a failed shell must not read as an
/// empty answer, and one that hangs must not hang the test run.
@Suite struct ShortCommandTests {
    @Test func theExitStatusAndBothStreamsAreKeptApart() throws {
        let outcome = try ShortCommand.run("/bin/sh", ["-c", "printf out; printf err >&2; exit 3"])
        #expect(outcome.status == 3)
        #expect(String(decoding: outcome.output, as: UTF8.self) == "out")
        #expect(String(decoding: outcome.errors, as: UTF8.self) == "err")
    }

    @Test func outputLargerThanAPipeIsReadWhole() throws {
        // 200 KB on each stream: more than a pipe holds, so both must be read as they fill.
        let outcome = try ShortCommand.run("/bin/sh", ["-c", "head -c 200000 /dev/zero; head -c 200000 /dev/zero >&2"])
        #expect(outcome.status == 0)
        #expect(outcome.output.count == 200_000 && outcome.errors.count == 200_000)
    }

    @Test func aCommandEndedBySignalReportsIt() throws {
        let outcome = try ShortCommand.run("/bin/sh", ["-c", "kill -9 $$"])
        #expect(outcome.status == 128 + SIGKILL)
    }

    @Test func aCommandPastItsTimeoutIsKilledAndReported() throws {
        let started = ContinuousClock.now
        #expect(throws: ShortCommand.Failure.self) { try ShortCommand.run("/bin/sleep", ["30"], timeout: .milliseconds(300)) }
        #expect(ContinuousClock.now - started < .seconds(10))
    }
}
