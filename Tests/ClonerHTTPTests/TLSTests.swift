import ClonerConcurrency
import ClonerTestSupport
import Foundation
import Testing
@testable import ClonerHTTP

/// TLS through OpenSSL with a throwaway certificate made by the `openssl` command, exercised by
/// `curl` (handshake, keep-alive reuse, bodies larger than one TLS record).
@Suite struct TLSTests {
    /// A self-signed certificate for localhost / 127.0.0.1 in a fresh temporary folder.
    static func makeCertificate() throws -> (folder: URL, tls: TLSConfiguration) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cloner-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let cert = folder.appendingPathComponent("cert.pem").path
        let key = folder.appendingPathComponent("key.pem").path
        let (status, _) = try run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            ])
        #expect(status == 0)
        return (folder, TLSConfiguration(certificateChainPath: cert, privateKeyPath: key))
    }

    @Test func curlOverTLS() throws {
        let (folder, tls) = try Self.makeCertificate()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try TestServer(tls: tls)
        defer { server.stop() }
        let base = "https://127.0.0.1:\(server.port)"

        // Two requests in one curl run reuse the connection (keep-alive over TLS).
        let (status, output) = try run(
            "/usr/bin/curl",
            [
                "-s", "-m", "60", "--cacert", tls.certificateChainPath, "-w", " %{http_code} %{num_connects}\n",
                "\(base)/hello", "\(base)/items/77",
            ])
        #expect(status == 0)
        #expect(output == "hello 200 1\nitem 77 200 0\n")

        // A body far larger than one TLS record, both ways.
        let payload = folder.appendingPathComponent("payload.bin")
        let bytes = (0..<600_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try Data(bytes).write(to: payload)
        let echoed = folder.appendingPathComponent("echoed.bin")
        let upload = try run(
            "/usr/bin/curl",
            [
                "-s", "-m", "60", "--cacert", tls.certificateChainPath, "--data-binary", "@\(payload.path)",
                "-o", echoed.path, "\(base)/echo",
            ])
        #expect(upload.status == 0)
        #expect(try Data(contentsOf: echoed) == Data(bytes))
    }

    /// A client that forgot `https://` gets a plain-HTTP 400 that says so (as nginx answers),
    /// a log line, and a close — not a bare reset it cannot explain.
    @Test func plainHTTPToATLSPortIsAnsweredAndLogged() throws {
        let (folder, tls) = try Self.makeCertificate()
        defer { try? FileManager.default.removeItem(at: folder) }
        let records = LockedValue<[HTTPAccessLogRecord]>([])
        var hooks = HTTPServer.Hooks()
        hooks.accessLog = { record in records.withLock { $0.append(record) } }
        let server = try TestServer(tls: tls, hooks: hooks)
        let client = try RawClient(port: server.port)
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let answer = try #require(client.readResponse(), "no plain-HTTP answer on the TLS port")
        #expect(answer.status == 400)
        #expect(answer.text.contains("plain HTTP sent to the HTTPS port"), "\(answer.text)")
        #expect(answer.header("Connection") == "close")
        #expect(client.isClosedByPeer())
        // The server is still fine for real TLS clients.
        let (status, output) = try run("/usr/bin/curl", ["-s", "-m", "60", "--cacert", tls.certificateChainPath, "https://localhost:\(server.port)/hello"])
        #expect(status == 0)
        #expect(output == "hello")
        server.stop()
        let logged = records.withLock { $0 }
        let plain = logged.first { $0.status == 400 }
        #expect(plain?.method == "GET" && plain?.path == "/hello", "\(logged)")
        #expect(logged.map(\.status).sorted() == [200, 400])
    }

    /// A TLS client whose first byte is not a letter still gets its handshake: the peek only
    /// diverts what starts like a request line.
    @Test func bytesThatAreNotARequestLineStillGoToTLS() throws {
        let (folder, tls) = try Self.makeCertificate()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try TestServer(tls: tls)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send([0x16, 0x03, 0x01, 0x00, 0x01, 0x00])
        #expect(client.readResponse() == nil, "a broken handshake is closed, not answered in plain HTTP")
    }

    @Test func badKeyFileIsATLSError() throws {
        let (folder, tls) = try Self.makeCertificate()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = TLSConfiguration(certificateChainPath: tls.certificateChainPath, privateKeyPath: folder.appendingPathComponent("missing.pem").path)
        let server = HTTPServer(configuration: .init(port: 0, eventLoopCount: 1, tls: broken), router: Router())
        #expect(throws: TLSError.self) { try server.start() }
    }
}
