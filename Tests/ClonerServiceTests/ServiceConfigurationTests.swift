import ClonerModel
@testable import ClonerService
import ClonerTestSupport
import Foundation
import Logging
import Testing

@Suite struct ServiceConfigurationTests {
    let missing = "/nonexistent/cloner.json"

    @Test func defaultsMatchDesign() throws {
        let config = try ServiceConfiguration.load(environment: [:], defaultSettingsFile: missing)
        #expect(config.host == "127.0.0.1")
        #expect(config.port == 8080)
        #expect(config.databasePath == "data/cloner.sqlite")
        #expect(config.modelPath == "config/model.json")
        #expect(config.apiKeys.isEmpty && config.readOnlyAPIKeys.isEmpty)
        #expect(config.tlsCertificatePath == nil && config.tlsKeyPath == nil)
        #expect(config.logLevel == .info)
        #expect(config.maxObjectsPerClone == 1_000_000)
        #expect(config.drainGrace == .seconds(2))
        #expect(config.idempotencyRetention == .seconds(86_400))
        #expect(config.jobLease == .seconds(15))
        #expect(config.http.maxRequestLineLength == 8192)
        #expect(config.http.maxHeaderFieldLength == 8192)
        #expect(config.http.maxHeaderSectionLength == 32_768)
        #expect(config.http.maxHeaderCount == 100)
        #expect(config.http.maxBodyLength == 8 * 1024 * 1024)
        #expect(config.http.headerTimeout == .seconds(10))
        #expect(config.http.bodyReadTimeout == .seconds(30))
        #expect(config.http.bodyTimeout == .seconds(20))
        #expect(config.http.bodyMinimumRate == 500)
        #expect(config.http.bodyMaximumTimeout == .seconds(120))
        #expect(config.http.idleTimeout == .seconds(75))
        #expect(config.http.maxRequestsPerConnection == 1000)
        #expect(config.http.maxConnections == 1024)
        #expect(config.http.maxConnectionsPerClient == 256)
        #expect(config.http.maxQueuedOutputBytes == 256 * 1024)
        #expect(config.maxObjectsPerRequest == 100_000)
        #expect(config.settingsFile == nil)
    }

    /// The job lease (docs/architecture.md#replicas) from the environment, overridden by the flag; out of range refused.
    @Test func jobLeaseFromEnvironmentAndFlag() throws {
        let fromEnvironment = try ServiceConfiguration.load(environment: ["CLONER_JOB_LEASE_SECONDS": "2"], defaultSettingsFile: missing)
        #expect(fromEnvironment.jobLease == .seconds(2))
        let fromFlag = try ServiceConfiguration.load(
            environment: ["CLONER_JOB_LEASE_SECONDS": "2"],
            overrides: .init(jobLeaseSeconds: 0.75), defaultSettingsFile: missing)
        #expect(fromFlag.jobLease == .milliseconds(750))
        for bad in ["0.1", "0", "7200", "soon"] {
            #expect(throws: ConfigurationError.self, "\(bad)") {
                try ServiceConfiguration.load(environment: ["CLONER_JOB_LEASE_SECONDS": bad], defaultSettingsFile: missing)
            }
        }
    }

    /// The writer wait: 30 s unless set; what the store's writes and clone admission wait at most.
    @Test func writerWaitFromEnvironment() throws {
        #expect(try ServiceConfiguration.load(environment: [:], defaultSettingsFile: missing).writerWait == .seconds(30))
        let set = try ServiceConfiguration.load(environment: ["CLONER_WRITER_WAIT_SECONDS": "2.5"], defaultSettingsFile: missing)
        #expect(set.writerWait == .milliseconds(2500))
        for bad in ["0", "-1", "soon"] {
            #expect(throws: ConfigurationError.self, "\(bad)") {
                try ServiceConfiguration.load(environment: ["CLONER_WRITER_WAIT_SECONDS": bad], defaultSettingsFile: missing)
            }
        }
    }

    /// The shipped settings file states exactly the built-in defaults and names every setting.
    @Test func shippedSettingsFileHoldsTheDefaults() throws {
        let path = repositoryRoot.appendingPathComponent("config/cloner.json").path
        var config = try ServiceConfiguration.load(environment: [:], overrides: .init(settingsFile: path))
        #expect(config.settingsFile == path)
        config.settingsFile = nil
        #expect(config == ServiceConfiguration())
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for setting in ServiceConfiguration.settings {
            let key = setting.fileKey.split(separator: ".").last.map(String.init)!
            #expect(text.contains("\"\(key)\""), "config/cloner.json lacks \(setting.fileKey)")
        }
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("config/README.md"), encoding: .utf8)
        for variable in ServiceConfiguration.environmentVariables {
            #expect(readme.contains(variable), "config/README.md lacks \(variable)")
        }
    }

    @Test func layersOverrideInOrder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write(
            #"""
            {"host": "10.0.0.1", "port": 9000, "logLevel": "debug", "database": "file.sqlite",
             "http": {"maxBodyBytes": 1024, "idleTimeoutSeconds": 2.5}, "cloneRuleKeys": {"exclude": "skip"}}
            """#, to: "settings.json")
        let config = try ServiceConfiguration.load(
            environment: [
                "CLONER_CONFIG": file, "CLONER_PORT": "9100", "CLONER_LOG_LEVEL": "WARNING", "CLONER_HOST": "",
                "CLONER_API_KEYS": " a , b ,", "CLONER_HTTP_MAX_BODY_BYTES": "2048",
                "CLONER_HTTP_BODY_TIMEOUT": "5", "CLONER_HTTP_BODY_MIN_RATE": "1000",
            ],
            overrides: .init(port: 9200, databasePath: "flag.sqlite"),
            defaultSettingsFile: missing)
        #expect(config.settingsFile == file)
        #expect(config.host == "10.0.0.1", "an empty variable counts as unset")
        #expect(config.port == 9200)
        #expect(config.databasePath == "flag.sqlite")
        #expect(config.logLevel == .warning)
        #expect(config.apiKeys == ["a", "b"])
        #expect(config.http.maxBodyLength == 2048)
        #expect(config.http.idleTimeout == .milliseconds(2500))
        #expect(config.http.bodyTimeout == .seconds(5))
        #expect(config.http.bodyMinimumRate == 1000)
        #expect(config.cloneRuleKeys.exclude == "skip")
        #expect(config.cloneRuleKeys.rebuild == "rebuild")
    }

    func expectError(
        _ source: String, value: String? = nil, containing message: String,
        environment: [String: String] = [:], overrides: ServiceConfiguration.Overrides = .init(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try ServiceConfiguration.load(environment: environment, overrides: overrides, defaultSettingsFile: missing)
            Issue.record("no error for \(source)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.source.hasSuffix(source), "\(error)", sourceLocation: sourceLocation)
            if let value { #expect(error.value == value, "\(error)", sourceLocation: sourceLocation) }
            #expect(error.message.contains(message), "\(error)", sourceLocation: sourceLocation)
            #expect(error.description.contains(source), sourceLocation: sourceLocation)
        }
    }

    @Test func badEnvironmentValuesNameTheVariableAndValue() {
        expectError("CLONER_PORT", value: "eighty", containing: "TCP port", environment: ["CLONER_PORT": "eighty"])
        expectError("CLONER_PORT", value: "70000", containing: "TCP port", environment: ["CLONER_PORT": "70000"])
        expectError("CLONER_LOG_LEVEL", value: "loud", containing: "one of trace", environment: ["CLONER_LOG_LEVEL": "loud"])
        expectError("CLONER_DRAIN_TIMEOUT", value: "-1", containing: "seconds", environment: ["CLONER_DRAIN_TIMEOUT": "-1"])
        expectError("CLONER_HTTP_MAX_CONNECTIONS", value: "0", containing: "count", environment: ["CLONER_HTTP_MAX_CONNECTIONS": "0"])
        expectError("CLONER_HTTP_BODY_MIN_RATE", value: "0", containing: "bytes per second", environment: ["CLONER_HTTP_BODY_MIN_RATE": "0"])
        expectError("http.bodyTimeoutSeconds", containing: "must not exceed", environment: ["CLONER_HTTP_BODY_TIMEOUT": "200"])
        expectError("CLONER_HOST", value: "a b", containing: "host", environment: ["CLONER_HOST": "a b"])
        expectError("CLONER_CONFIG", value: "/nope.json", containing: "not found", environment: ["CLONER_CONFIG": "/nope.json"])
    }

    @Test func badKeysAreReportedWithoutEchoingThem() {
        expectError(
            "CLONER_API_KEYS", value: "<key 2 of 2>", containing: "b64token",
            environment: ["CLONER_API_KEYS": "good,bad key"])
        expectError("CLONER_READ_API_KEYS", containing: "64 hex digits", environment: ["CLONER_READ_API_KEYS": "sha256:1234"])
    }

    /// A key setting that is there but gives no key would turn authentication off unnoticed: it
    /// stops the start instead, naming the setting. Leaving it out (or null in the file) is "no keys".
    @Test func aKeySettingHoldingNoKeyStopsTheStart() throws {
        for text in [" , ", ",", "  "] {
            expectError("CLONER_API_KEYS", containing: "holds no key", environment: ["CLONER_API_KEYS": text])
            expectError("CLONER_READ_API_KEYS", containing: "holds no key", environment: ["CLONER_READ_API_KEYS": text])
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for key in ["apiKeys", "readApiKeys"] {
            let empty = try directory.write("{\"\(key)\": []}", to: "\(key)-empty.json")
            expectError(key, value: "[]", containing: "holds no key", overrides: .init(settingsFile: empty))
            let blank = try directory.write("{\"\(key)\": [\" \"]}", to: "\(key)-blank.json")
            expectError(key, containing: "non-empty", overrides: .init(settingsFile: blank))
            let null = try directory.write("{\"\(key)\": null}", to: "\(key)-null.json")
            let config = try ServiceConfiguration.load(environment: [:], overrides: .init(settingsFile: null), defaultSettingsFile: missing)
            #expect(config.apiKeys.isEmpty && config.readOnlyAPIKeys.isEmpty, "null in the file is no keys")
        }
        let unset = try ServiceConfiguration.load(environment: ["CLONER_API_KEYS": ""], defaultSettingsFile: missing)
        #expect(unset.apiKeys.isEmpty, "an empty variable counts as unset")
    }

    @Test func badFlagsNameTheFlag() {
        expectError("--port", value: "-1", containing: "TCP port", overrides: .init(port: -1))
        expectError("--log-level", value: "nope", containing: "one of", overrides: .init(logLevel: "nope"))
        expectError("--config", value: "/missing/settings.json", containing: "not found", overrides: .init(settingsFile: "/missing/settings.json"))
    }

    @Test func settingsFileErrorsNameTheKey() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cases: [(String, String, String?, String)] = [
            (#"{"prot": 8080}"#, "prot", nil, "unknown setting"),
            (#"{"http": {"maxBody": 1}}"#, "http.maxBody", nil, "unknown setting"),
            (#"{"port": "8080"}"#, "port", "\"8080\"", "TCP port"),
            (#"{"port": 80.5}"#, "port", "80.5", "TCP port"),
            (#"{"apiKeys": "k"}"#, "apiKeys", "\"k\"", "array of key strings"),
            (#"{"http": {"headerTimeoutSeconds": 0}}"#, "http.headerTimeoutSeconds", "0", "seconds"),
            (#"{"cloneRuleKeys": {"exclude": "x", "clone": "x"}}"#, "cloneRuleKeys", nil, "share one userInfo key"),
            (#"{"cloneRuleKeys": {"copy": "x"}}"#, "cloneRuleKeys.copy", nil, "unknown setting"),
            (#"[1]"#, "bad.json", nil, "JSON object"),
            (#"{"port": 1,}"#, "bad.json", nil, "line 1, column 12 (byte 11)"),
        ]
        for (index, (text, source, value, message)) in cases.enumerated() {
            let file = try directory.write(text, to: index >= 8 ? "bad.json" : "case\(index).json")
            expectError(source, value: value, containing: message, overrides: .init(settingsFile: file))
        }
    }

    @Test func tlsNeedsBothFiles() {
        expectError("CLONER_TLS_KEY (tlsKey, --tls-key)", containing: "without its private key", environment: ["CLONER_TLS_CERT": "cert.pem"])
        expectError("CLONER_TLS_CERT (tlsCertificate, --tls-cert)", containing: "without its certificate", environment: ["CLONER_TLS_KEY": "key.pem"])
    }

    @Test func emptyFlagsTurnTLSOffOverTheEnvironment() throws {
        let config = try ServiceConfiguration.load(
            environment: ["CLONER_TLS_CERT": "c.pem", "CLONER_TLS_KEY": "k.pem"],
            overrides: .init(tlsCertificatePath: "", tlsKeyPath: ""), defaultSettingsFile: missing)
        #expect(config.tlsCertificatePath == nil && config.tlsKeyPath == nil)
    }

    @Test func trustedProxiesFromEachLayer() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write(#"{"trustedProxies": ["10.0.0.0/8", "2001:db8::1"], "proxyProtocol": true}"#, to: "settings.json")
        let fromFile = try ServiceConfiguration.load(environment: [:], overrides: .init(settingsFile: file), defaultSettingsFile: missing)
        #expect(fromFile.trustedProxies.description == "10.0.0.0/8, 2001:db8::1")
        #expect(fromFile.proxyProtocol)
        let fromEnvironment = try ServiceConfiguration.load(
            environment: ["CLONER_CONFIG": file, "CLONER_TRUSTED_PROXIES": " 127.0.0.1 , ::1 ", "CLONER_PROXY_PROTOCOL": "no"],
            defaultSettingsFile: missing)
        #expect(fromEnvironment.trustedProxies.description == "127.0.0.1, ::1")
        #expect(!fromEnvironment.proxyProtocol)
        let fromFlags = try ServiceConfiguration.load(
            environment: ["CLONER_TRUSTED_PROXIES": "127.0.0.1"],
            overrides: .init(trustedProxies: ["192.168.0.0/16"], proxyProtocol: true), defaultSettingsFile: missing)
        #expect(fromFlags.trustedProxies.contains(host: "192.168.3.4") && !fromFlags.trustedProxies.contains(host: "127.0.0.1"))
        #expect(fromFlags.proxyProtocol)
    }

    @Test func badTrustedProxiesSayWhich() {
        expectError(
            "CLONER_TRUSTED_PROXIES", value: "proxy.local", containing: "IPv4 or IPv6 address",
            environment: ["CLONER_TRUSTED_PROXIES": "10.0.0.1,proxy.local"])
        expectError(
            "CLONER_TRUSTED_PROXIES", value: "10.0.0.1/8", containing: "10.0.0.0/8",
            environment: ["CLONER_TRUSTED_PROXIES": "10.0.0.1/8"])
        expectError("--trusted-proxy", value: "::1/200", containing: "0–128", overrides: .init(trustedProxies: ["::1/200"]))
        expectError(
            "CLONER_PROXY_PROTOCOL", value: "maybe", containing: "true or false",
            environment: ["CLONER_PROXY_PROTOCOL": "maybe"])
        // The header would be expected from nobody.
        expectError(
            "CLONER_PROXY_PROTOCOL (proxyProtocol, --proxy-protocol)", containing: "no trusted proxies",
            environment: ["CLONER_PROXY_PROTOCOL": "true"])
        expectError(
            "CLONER_PROXY_PROTOCOL (proxyProtocol, --proxy-protocol)", containing: "plain HTTP only",
            environment: [
                "CLONER_PROXY_PROTOCOL": "1", "CLONER_TRUSTED_PROXIES": "127.0.0.1",
                "CLONER_TLS_CERT": "c.pem", "CLONER_TLS_KEY": "k.pem",
            ])
    }
}
