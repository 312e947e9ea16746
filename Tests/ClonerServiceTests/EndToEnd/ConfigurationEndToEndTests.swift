import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// Configuration layers (file < environment < flags), first-start defaults, and TLS (docs/architecture.md#configuration).
@Suite("End to end: configuration and TLS")
struct ConfigurationEndToEndTests {
    typealias F = EndToEndFixture

    @Test("defaults create data/cloner.sqlite under the working directory; the settings file, CLONER_* and flags override in that order")
    func layers() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = directory.url.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: ServiceProcess.sampleModelPath, toPath: config.appendingPathComponent("model.json").path)

        // Only defaults (no settings file): config/model.json and data/cloner.sqlite, relative to the working directory.
        let run = try await ServiceProcess.run(["check-model", "config/model.json"], in: directory.url)
        #expect(run.status == 0)
        do {
            let service = try await ServiceProcess.start(directory: directory.url, defaults: true)
            defer { service.stop() }
            #expect(try await service.client.get("/readyz").status == 200)
            #expect(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("data/cloner.sqlite").path))
        }

        // The settings file names keys; the environment overrides it; flags override both. (The
        // file's logLevel is warning: the environment's info brings the "listening" line back.)
        _ = try directory.write(#"{"apiKeys":["from-file"],"database":"file.sqlite","logLevel":"warning"}"#, to: "config/cloner.json")
        do {
            let service = try await ServiceProcess.start(
                directory: directory.url, defaults: true, environment: ["CLONER_LOG_LEVEL": "info", "CLONER_DATABASE": "env.sqlite"])
            defer { service.stop() }
            #expect(try await service.client.get("/notes").status == 401, "apiKeys from the file")
            #expect(try await service.client.get("/notes", headers: [("Authorization", "Bearer from-file")]).status == 200)
            #expect(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("env.sqlite").path), "CLONER_DATABASE over the file")
            #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("file.sqlite").path))
        }
        do {
            let service = try await ServiceProcess.start(
                directory: directory.url, defaults: true,
                environment: ["CLONER_API_KEYS": "from-env", "CLONER_DATABASE": "env.sqlite"],
                arguments: ["--database", "flag.sqlite", "--log-level", "info"])
            defer { service.stop() }
            #expect(try await service.client.get("/notes", headers: [("Authorization", "Bearer from-file")]).status == 401, "CLONER_API_KEYS over the file")
            #expect(try await service.client.get("/notes", headers: [("Authorization", "Bearer from-env")]).status == 200)
            #expect(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("flag.sqlite").path), "--database over the environment")
        }
    }

    @Test("--tls-cert/--tls-key serve HTTPS: curl verifies the certificate and clones over it")
    func tls() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let certificate = directory.url.appendingPathComponent("cert.pem").path
        let key = directory.url.appendingPathComponent("key.pem").path
        let openssl = try ShortCommand.run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", key, "-out", certificate, "-days", "1", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
            ])
        try #require(openssl.status == 0, "\(String(decoding: openssl.errors, as: UTF8.self))")

        let service = try await ServiceProcess.start(
            directory: directory.url, environment: ["CLONER_TLS_CERT": certificate],
            arguments: ["--tls-key", key])
        defer { service.stop() }
        let base = "https://127.0.0.1:\(service.port)"
        let created = try await Curl.run([
            "-sS", "-i", "--cacert", certificate, "-X", "POST", "\(base)/notes",
            "-H", "Content-Type: application/json", "--data-binary", F.note(#""name":"secure","items":[{"name":"x"}]"#),
        ])
        #expect(created.status == 201)
        let location = try #require(created.header("Location"))
        let cloned = try await Curl.run(["-sS", "-i", "--cacert", certificate, "-X", "POST", "\(base)\(location)/clone"])
        #expect(cloned.status == 201)
        #expect(F.counts(try cloned.json()["created"]) == ["Note": 1, "Item": 1])
        await #expect(throws: ClientError.self, "plain HTTP is not answered as HTTP on a TLS port") {
            let plain = try await service.client.get("/healthz")
            if plain.status == 200 { return }
            throw ClientError("answered \(plain.status)")
        }
    }
}
