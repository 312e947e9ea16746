import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM's drain grace (docs/architecture.md#signals-and-drain): for `drainGrace` after the signal the listener stays
/// open and `/readyz` answers 503 — on open keep-alive connections and on new ones — so a load
/// balancer probing it sees the drain before connections are refused.
@Suite("End to end: drain grace")
struct DrainGraceEndToEndTests {
    /// One Content-Length-framed response from a connection that stays open (`receiveResponse`
    /// reads to the close).
    static func receiveOne(_ connection: ClientConnection) async throws -> ClientResponse {
        try await Blocking.run {
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                if let headEnd = received.indices.first(where: { received[$0...].starts(with: [13, 10, 13, 10]) }) {
                    let head = String(decoding: received[..<headEnd], as: UTF8.self).lowercased()
                    let length = head.components(separatedBy: "\r\n")
                        .first { $0.hasPrefix("content-length:") }
                        .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                    if received.count >= headEnd + 4 + length { return try ClientResponse.parse(received).response }
                }
                let count = chunk.withUnsafeMutableBytes { Glibc.recv(connection.descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { throw ClientError("connection ended after \(received.count) bytes") }
                received.append(contentsOf: chunk[0..<count])
            }
        }
    }

    @Test("after SIGTERM, /readyz answers 503 on a kept-alive and on a new connection within the grace; then the listener closes and the process exits 0")
    func readinessIsAskableDuringTheGrace() async throws {
        try await ServiceProcess.withService(environment: ["CLONER_DRAIN_GRACE": "3"]) { service in
            let kept = try ClientConnection(port: service.port, timeoutSeconds: 20)
            try kept.send("GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(try await Self.receiveOne(kept).status == 200)

            let signalled = ContinuousClock.now
            service.signal(SIGTERM)
            try await Task.sleep(for: .milliseconds(300))

            try kept.send("GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let onKept = try await Self.receiveOne(kept)
            #expect(onKept.status == 503, "kept-alive /readyz in the grace: \(onKept.status) \(onKept.text)")
            #expect(onKept.text.contains("draining"))

            let fresh = try await service.client.get("/readyz")
            #expect(fresh.status == 503, "new connection's /readyz in the grace: \(fresh.status) \(fresh.text)")
            #expect(ContinuousClock.now - signalled < .seconds(3), "asked within the grace")

            #expect(await LifecycleEndToEndTests.waitUntilRefused(port: service.port, timeout: .seconds(30)))
            #expect(ContinuousClock.now - signalled > .milliseconds(2500), "the listener closed before the grace ended")
            #expect(await service.waitForExit(timeout: .seconds(60)) == 0)
        }
    }
}
