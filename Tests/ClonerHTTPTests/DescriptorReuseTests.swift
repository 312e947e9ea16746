#if canImport(Glibc)
import Glibc
#endif
import ClonerConcurrency
import ClonerTestSupport
import Foundation
import Synchronization
import Testing
@testable import ClonerHTTP

/// Descriptor numbers are shared by the whole test process: a double close in one place closes
/// whatever socket another thread was handed that number in between, and its bytes then flow
/// into a stranger's connection (seen as "aGET" 405s and 55-byte echo bodies in full runs).
@Suite struct DescriptorReuseTests {
    /// A client whose connect is refused must close its socket exactly once: while one thread
    /// keeps getting refused, others open fresh connections (which take the lowest free number)
    /// and every answer they read must be their own.
    @Test func refusedClientsNeverCloseAnotherConnectionsSocket() throws {
        let gone = try TestServer()
        let refusedPort = gone.port
        gone.stop()
        let server = try TestServer()
        defer { server.stop() }
        let port = server.port
        let deadline = ContinuousClock.now + .seconds(3)
        let wrong = LockedValue<[String]>([])
        let exchanges = Atomic<Int>(0)
        let refusals = Atomic<Int>(0)
        // Threads of their own: busy loops on Dispatch's pool would keep the workers from starting.
        let group = DispatchGroup()
        func spawn(_ body: @escaping @Sendable () -> Void) {
            group.enter()
            Thread {
                body(); group.leave()
            }.start()
        }
        for _ in 0..<2 {
            spawn {
                while ContinuousClock.now < deadline {
                    if (try? RawClient(port: refusedPort)) == nil { refusals.add(1, ordering: .relaxed) }
                }
            }
        }
        for worker in 0..<3 {
            spawn {
                var round = 0
                while ContinuousClock.now < deadline {
                    round += 1
                    guard let client = try? RawClient(port: port, timeout: 2) else {
                        wrong.withLock { $0.append("worker \(worker) round \(round): connect failed") }
                        continue
                    }
                    for request in 0..<3 {
                        let id = "\(worker)-\(round)-\(request)"
                        client.send("GET /items/\(id) HTTP/1.1\r\nHost: x\r\n\r\n")
                        let response = client.readResponse()
                        exchanges.add(1, ordering: .relaxed)
                        if response?.status != 200 || response?.text != "item \(id)" {
                            wrong.withLock { $0.append("\(id): \(response.map { "\($0.status) \($0.text)" } ?? "no answer")") }
                            break
                        }
                    }
                }
            }
        }
        group.wait()
        let problems = wrong.withLock { $0 }
        #expect(refusals.load(ordering: .relaxed) > 100)
        #expect(exchanges.load(ordering: .relaxed) > 100)
        let wrongCount = problems.count
        #expect(wrongCount == 0, "wrong answers, e.g. \(problems.prefix(5))")
    }
}
