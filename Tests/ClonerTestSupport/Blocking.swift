import Foundation

/// Runs blocking work (socket reads, child processes, polling sleeps) on a thread of its own and
/// awaits it. The tests' own tasks then never block the cooperative pool — two threads on a
/// 2-core machine — which the server's tasks (streamed bodies, async handlers) and other suites
/// share.
package enum Blocking {
    package static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}
