import Foundation

/// A wait that ran out: what was awaited, and for how long.
package struct TimedOut: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// Waits for something to have happened instead of sleeping a fixed time: re-evaluates
/// `condition` every `poll` until it holds, and returns at once when it does. A fixed sleep is
/// too short on a loaded machine and wasted on a quiet one.
///
/// Throws `TimedOut` ("`what` did not happen within …") once `timeout` has passed with the
/// condition still false (it is evaluated once more after the deadline). Sleeps with
/// `Task.sleep`, leaving the cooperative pool's thread free meanwhile.
package func eventually(
    _ what: @autoclosure () -> String, timeout: Duration = .seconds(30), poll: Duration = .milliseconds(20),
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while true {
        let late = ContinuousClock.now >= deadline
        if try await condition() { return }
        if late { throw TimedOut("\(what()) did not happen within \(timeout)") }
        try await Task.sleep(for: poll)
    }
}

/// `eventually` for a thread that may block (a test's own thread, `Blocking.run`): sleeps the
/// calling thread between evaluations.
package func eventuallyBlocking(
    _ what: @autoclosure () -> String, timeout: Duration = .seconds(30), poll: Duration = .milliseconds(20),
    _ condition: () throws -> Bool
) throws {
    let deadline = ContinuousClock.now + timeout
    let (seconds, attoseconds) = poll.components
    let pause = Double(seconds) + Double(attoseconds) / 1e18
    while true {
        let late = ContinuousClock.now >= deadline
        if try condition() { return }
        if late { throw TimedOut("\(what()) did not happen within \(timeout)") }
        Thread.sleep(forTimeInterval: pause)
    }
}
