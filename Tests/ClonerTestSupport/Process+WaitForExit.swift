import Foundation

extension Process {
    /// Waits by polling, bounded, never with `waitUntilExit`: off the main thread that spins a
    /// run loop with no sources, and in a full run it was seen spinning for an hour on a
    /// cooperative-pool thread (the child long dead), starving every async test behind it.
    /// - Returns: whether the process has exited.
    package func waitForExit(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while isRunning && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        return !isRunning
    }
}
