import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// SIGTERM's drain grace (docs/architecture.md#signals-and-drain): for `drainGrace` after the signal the listener stays
/// open and `/readyz` answers 503 — on open keep-alive connections and on new ones — so a load
/// balancer probing it sees the drain before connections are refused.
@Suite("End to end: drain grace")
struct DrainGraceEndToEndTests {
    @Test("after SIGTERM, /readyz answers 503 on a kept-alive and on a new connection within the grace; then the listener closes and the process exits 0")
    func readinessIsAskableDuringTheGrace() async throws {
        try await ServiceProcess.withService(environment: ["CLONER_DRAIN_GRACE": "40", "CLONER_DRAIN_TIMEOUT": "90"]) { service in
            let kept = try RawClient(port: service.port, timeout: 60)
            kept.send("GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(try await kept.response().status == 200)

            let signalled = ContinuousClock.now
            service.signal(SIGTERM)
            // The drain has begun once the process logs it (just before /readyz turns 503).
            let draining = await service.stdout.jsonLine(within: .seconds(30)) { $0["message"] as? String == "draining" }
            try #require(draining != nil, "no \"draining\" log line within 30 s of SIGTERM")

            kept.send("GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let onKept = try await kept.response()
            #expect(onKept.status == 503, "kept-alive /readyz in the grace: \(onKept.status) \(onKept.text)")
            #expect(onKept.text.contains("draining"))

            let fresh = try await service.client.get("/readyz")
            #expect(fresh.status == 503, "new connection's /readyz in the grace: \(fresh.status) \(fresh.text)")
            // A grace of 40 s leaves room for a loaded machine (the in-process suites share the
            // test process's threads) to ask both within it: with 15 s, a full parallel run at a
            // load average near 19 once took 21.5 s to get here.
            #expect(ContinuousClock.now - signalled < .seconds(40), "asked within the grace")

            #expect(await LifecycleEndToEndTests.waitUntilRefused(port: service.port, timeout: .seconds(60)))
            #expect(ContinuousClock.now - signalled > .milliseconds(39_500), "the listener closed before the grace ended")
            #expect(await service.waitForExit(timeout: .seconds(90)) == 0)
        }
    }
}
