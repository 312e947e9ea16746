#if canImport(Glibc)
import Glibc
#endif
import ClonerTestSupport
import Foundation
import Testing
@testable import ClonerHTTP

/// The body's minimum transfer rate (docs/architecture.md#framing-and-limits, as Apache mod_reqtimeout's `body=…,MinRate=…`):
/// a first window, extended by the bytes actually received, never beyond a cap. The gap timer
/// alone can't stop a trickle, since every byte resets it.
@Suite struct BodyRateTests {
    /// Gap timer far away (30 s) so that only the rate rule can cut the body.
    static func rateLimits(first: Duration = .seconds(1), cap: Duration = .seconds(3)) -> HTTPLimits {
        var limits = HTTPLimits()
        limits.bodyTimeout = first
        limits.bodyMinimumRate = 500
        limits.bodyMaximumTimeout = cap
        return limits
    }

    /// Sends `pieces` pieces of `size` bytes, one every `every` µs, from a thread of its own while
    /// the test reads the answer; stops at the first failed send (the server closed).
    ///
    /// The thread sends on a `dup` of the descriptor that it closes itself: on the client's own
    /// number it outlived the test, and once the client closed that number and the process handed
    /// it to another test's socket, the remaining bytes ("aaaa…") went into a stranger's connection.
    static func sendInBackground(fd: Int32, pieces: Int, size: Int, every: UInt32) {
        let own = dup(fd)
        precondition(own >= 0, "dup failed: \(errno)")
        Thread {
            defer { close(own) }
            let piece = [UInt8](repeating: 0x61, count: size)
            for _ in 0..<pieces {
                let sent = piece.withUnsafeBytes { Glibc.send(own, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if sent <= 0 { return }
                usleep(every)
            }
        }.start()
    }

    @Test func aTrickledBodyIsCutWhateverItsDeclaredLength() throws {
        let server = try TestServer(limits: Self.rateLimits())
        defer { server.stop() }
        let client = try RawClient(port: server.port, timeout: 15)
        let start = ContinuousClock.now
        client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5000000\r\n\r\n")
        // One byte every 200 ms: each byte resets the gap timer, none may keep the body alive.
        Self.sendInBackground(fd: client.fd, pieces: 50, size: 1, every: 200_000)
        let response = try #require(client.readResponse())
        #expect(response.status == 408)
        #expect(response.header("Connection") == "close")
        #expect(response.text.contains("500 bytes/s"), "\(response.text)")
        // A 1 s first window plus a handful of bytes at 2 ms each: cut after about 1 s.
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test func aBodyAboveTheRateOutlivesTheFirstWindow() throws {
        let server = try TestServer(limits: Self.rateLimits(cap: .seconds(30)))
        defer { server.stop() }
        let client = try RawClient(port: server.port, timeout: 15)
        let total = 8 * 600
        client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: \(total)\r\n\r\n")
        // 600 bytes every 250 ms (2400 B/s) for 2 s: twice the first window, always ahead of 500 B/s.
        for _ in 0..<8 {
            client.send([UInt8](repeating: 0x62, count: 600))
            usleep(250_000)
        }
        let response = try #require(client.readResponse())
        #expect(response.status == 200)
        #expect(response.body.count == total)
    }

    @Test func theCapBoundsEvenAFastEnoughBody() throws {
        let server = try TestServer(limits: Self.rateLimits(cap: .seconds(2)))
        defer { server.stop() }
        let client = try RawClient(port: server.port, timeout: 15)
        let start = ContinuousClock.now
        client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n")
        // 2000 B/s, well above the rate, for longer than the 2 s cap.
        Self.sendInBackground(fd: client.fd, pieces: 40, size: 400, every: 200_000)
        let response = try #require(client.readResponse())
        #expect(response.status == 408)
        let elapsed = ContinuousClock.now - start
        #expect(elapsed > .milliseconds(1800) && elapsed < .seconds(6), "\(elapsed)")
    }
}
