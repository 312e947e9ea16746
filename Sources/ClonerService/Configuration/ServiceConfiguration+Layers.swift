import ClonerHTTP
import ClonerModel
import ClonerStore
import Foundation
import Logging

/// Reading the settings file, the environment and the flags. One table (`settings`) names each
/// setting in the file and in the environment, so the two layers can never disagree on what a
/// setting means or how its value is checked.
extension ServiceConfiguration {
    /// A value as a layer gives it: typed JSON from the settings file, text from a variable or flag.
    enum RawValue {
        case json(JSONValue)
        case text(String)

        /// A JSON string as text; anything else unchanged.
        var asText: RawValue {
            if case .json(.string(let text)) = self { return .text(text) }
            return self
        }

        var display: String {
            switch self {
            case .text(let text): return text
            case .json(let value):
                var writer = JSONWriter()
                writer.value(value)
                return writer.string
            }
        }
    }

    typealias Apply = @Sendable (inout ServiceConfiguration, RawValue, String) throws(ConfigurationError) -> Void

    struct Setting: Sendable {
        /// Key in the settings file; `http.` members live in the nested `http` object.
        var fileKey: String
        var environmentVariable: String?
        var apply: Apply
    }

    /// Every setting. `cloneRuleKeys` is file-only: it is a nested object.
    static let settings: [Setting] = [
        Setting(fileKey: "host", environmentVariable: "CLONER_HOST") { config, raw, source throws(ConfigurationError) in
            config.host = try parseHost(raw, source: source)
        },
        Setting(fileKey: "port", environmentVariable: "CLONER_PORT") { config, raw, source throws(ConfigurationError) in
            config.port = try parseInteger(raw, source: source, range: 0...65535, expected: "a TCP port 0–65535 (0 picks a free port)")
        },
        Setting(fileKey: "database", environmentVariable: "CLONER_DATABASE") { config, raw, source throws(ConfigurationError) in
            config.databasePath = try parseDatabase(raw, source: source)
        },
        Setting(fileKey: "databasePoolSize", environmentVariable: "CLONER_DATABASE_POOL_SIZE") { config, raw, source throws(ConfigurationError) in
            config.databasePoolSize = try parseInteger(raw, source: source, range: 1...1000, expected: "a connection count 1–1000")
        },
        Setting(fileKey: "requireSynchronousStandby", environmentVariable: "CLONER_REQUIRE_SYNCHRONOUS_STANDBY") {
            config, raw, source throws(ConfigurationError) in
            config.requireSynchronousStandby = try parseBool(raw, source: source)
        },
        Setting(fileKey: "model", environmentVariable: "CLONER_MODEL") { config, raw, source throws(ConfigurationError) in
            config.modelPath = try parsePath(raw, source: source)
        },
        Setting(fileKey: "apiKeys", environmentVariable: "CLONER_API_KEYS") { config, raw, source throws(ConfigurationError) in
            config.apiKeys = try parseKeys(raw, source: source)
        },
        Setting(fileKey: "readApiKeys", environmentVariable: "CLONER_READ_API_KEYS") { config, raw, source throws(ConfigurationError) in
            config.readOnlyAPIKeys = try parseKeys(raw, source: source)
        },
        Setting(fileKey: "tlsCertificate", environmentVariable: "CLONER_TLS_CERT") { config, raw, source throws(ConfigurationError) in
            config.tlsCertificatePath = try parseOptionalPath(raw, source: source)
        },
        Setting(fileKey: "tlsKey", environmentVariable: "CLONER_TLS_KEY") { config, raw, source throws(ConfigurationError) in
            config.tlsKeyPath = try parseOptionalPath(raw, source: source)
        },
        Setting(fileKey: "logLevel", environmentVariable: "CLONER_LOG_LEVEL") { config, raw, source throws(ConfigurationError) in
            config.logLevel = try parseLogLevel(raw, source: source)
        },
        Setting(fileKey: "drainTimeoutSeconds", environmentVariable: "CLONER_DRAIN_TIMEOUT") { config, raw, source throws(ConfigurationError) in
            config.drainTimeout = try parseSeconds(raw, source: source)
        },
        Setting(fileKey: "drainGraceSeconds", environmentVariable: "CLONER_DRAIN_GRACE") { config, raw, source throws(ConfigurationError) in
            config.drainGrace = try parseSeconds(raw, source: source)
        },
        Setting(fileKey: "maxObjectsPerClone", environmentVariable: "CLONER_MAX_OBJECTS_PER_CLONE") { config, raw, source throws(ConfigurationError) in
            config.maxObjectsPerClone = try parseInteger(raw, source: source, range: 1...Int(Int32.max), expected: "a positive integer")
        },
        Setting(fileKey: "maxObjectsPerRequest", environmentVariable: "CLONER_MAX_OBJECTS_PER_REQUEST") { config, raw, source throws(ConfigurationError) in
            config.maxObjectsPerRequest = try parseInteger(raw, source: source, range: 1...Int(Int32.max), expected: "a positive integer")
        },
        Setting(fileKey: "maxValuesPerRequest", environmentVariable: "CLONER_MAX_VALUES_PER_REQUEST") { config, raw, source throws(ConfigurationError) in
            config.maxValuesPerRequest = try parseInteger(raw, source: source, range: 1...Int(Int32.max), expected: "a positive integer")
        },
        Setting(fileKey: "maxUploadBytes", environmentVariable: "CLONER_MAX_UPLOAD_BYTES") { config, raw, source throws(ConfigurationError) in
            config.maxUploadBytes = try parseInteger(raw, source: source, range: 1...Int.max, expected: "a positive number of bytes")
        },
        Setting(fileKey: "maxInlineBinaryBytes", environmentVariable: "CLONER_MAX_INLINE_BINARY_BYTES") { config, raw, source throws(ConfigurationError) in
            config.maxInlineBinaryBytes = try parseInteger(raw, source: source, range: 0...Int.max, expected: "a number of bytes (0 or more)")
        },
        Setting(fileKey: "maxPageTextBytes", environmentVariable: "CLONER_MAX_PAGE_TEXT_BYTES") { config, raw, source throws(ConfigurationError) in
            config.maxPageTextBytes = try parseInteger(raw, source: source, range: 1...Int.max, expected: "a positive number of bytes")
        },
        Setting(fileKey: "maxConcurrentImports", environmentVariable: "CLONER_MAX_CONCURRENT_IMPORTS") { config, raw, source throws(ConfigurationError) in
            config.maxConcurrentImports = try parseInteger(raw, source: source, range: 1...1000, expected: "a count 1–1000")
        },
        Setting(fileKey: "maxBufferedImportBytes", environmentVariable: "CLONER_MAX_BUFFERED_IMPORT_BYTES") { config, raw, source throws(ConfigurationError) in
            config.maxBufferedImportBytes = try parseInteger(raw, source: source, range: 1...Int.max, expected: "a positive number of bytes")
        },
        Setting(fileKey: "maxExportSpoolBytes", environmentVariable: "CLONER_MAX_EXPORT_SPOOL_BYTES") { config, raw, source throws(ConfigurationError) in
            config.maxExportSpoolBytes = try parseInteger(raw, source: source, range: 1...Int.max, expected: "a positive number of bytes")
        },
        Setting(fileKey: "maxBufferedUploadBytes", environmentVariable: "CLONER_MAX_BUFFERED_UPLOAD_BYTES") { config, raw, source throws(ConfigurationError) in
            config.maxBufferedUploadBytes = try parseInteger(raw, source: source, range: 1...Int.max, expected: "a positive number of bytes")
        },
        Setting(fileKey: "maxCopies", environmentVariable: "CLONER_MAX_COPIES") { config, raw, source throws(ConfigurationError) in
            config.maxCopies = try parseInteger(raw, source: source, range: 1...1_000_000, expected: "a positive integer")
        },
        Setting(fileKey: "maxCloneSetBytes", environmentVariable: "CLONER_MAX_CLONE_SET_BYTES") { config, raw, source throws(ConfigurationError) in
            config.maxCloneSetBytes = try parseInteger(raw, source: source, range: 1...Int.max, expected: "a positive number of bytes")
        },
        Setting(fileKey: "maxConcurrentClones", environmentVariable: "CLONER_MAX_CONCURRENT_CLONES") { config, raw, source throws(ConfigurationError) in
            if case .json(.null) = raw {
                config.maxConcurrentClones = nil
            } else {
                config.maxConcurrentClones = try parseInteger(
                    raw, source: source, range: 1...10_000, expected: "an integer from 1 to 10000, or null for the store's default")
            }
        },
        Setting(fileKey: "maxQueuedClones", environmentVariable: "CLONER_MAX_QUEUED_CLONES") { config, raw, source throws(ConfigurationError) in
            config.maxQueuedClones = try parseInteger(raw, source: source, range: 1...1_000_000, expected: "an integer from 1 to 1000000")
        },
        Setting(fileKey: "writerWaitSeconds", environmentVariable: "CLONER_WRITER_WAIT_SECONDS") { config, raw, source throws(ConfigurationError) in
            config.writerWait = try parseSeconds(raw, source: source)
        },
        Setting(fileKey: "idempotencyRetentionSeconds", environmentVariable: "CLONER_IDEMPOTENCY_RETENTION") { config, raw, source throws(ConfigurationError) in
            config.idempotencyRetention = try parseSeconds(raw, source: source)
        },
        Setting(fileKey: "jobRetentionSeconds", environmentVariable: "CLONER_JOB_RETENTION") { config, raw, source throws(ConfigurationError) in
            config.jobRetention = try parseSeconds(raw, source: source)
        },
        Setting(fileKey: "jobLeaseSeconds", environmentVariable: "CLONER_JOB_LEASE_SECONDS") { config, raw, source throws(ConfigurationError) in
            config.jobLease = try parseLease(raw, source: source)
        },
        Setting(fileKey: "trustedProxies", environmentVariable: "CLONER_TRUSTED_PROXIES") { config, raw, source throws(ConfigurationError) in
            config.trustedProxies = try parseTrustedProxies(raw, source: source)
        },
        Setting(fileKey: "proxyProtocol", environmentVariable: "CLONER_PROXY_PROTOCOL") { config, raw, source throws(ConfigurationError) in
            config.proxyProtocol = try parseBool(raw, source: source)
        },
        Setting(fileKey: "cloneRuleKeys", environmentVariable: nil) { config, raw, source throws(ConfigurationError) in
            config.cloneRuleKeys = try parseCloneRuleKeys(raw, source: source)
        },
        Setting(fileKey: "http.maxRequestLineBytes", environmentVariable: "CLONER_HTTP_MAX_REQUEST_LINE_BYTES") {
            config, raw, source throws(ConfigurationError) in
            config.http.maxRequestLineLength = try parseInteger(raw, source: source, range: 64...(1 << 20), expected: "a byte count 64–1048576")
        },
        Setting(fileKey: "http.maxHeaderFieldBytes", environmentVariable: "CLONER_HTTP_MAX_HEADER_FIELD_BYTES") {
            config, raw, source throws(ConfigurationError) in
            config.http.maxHeaderFieldLength = try parseInteger(raw, source: source, range: 64...(1 << 20), expected: "a byte count 64–1048576")
        },
        Setting(fileKey: "http.maxHeaderSectionBytes", environmentVariable: "CLONER_HTTP_MAX_HEADER_SECTION_BYTES") {
            config, raw, source throws(ConfigurationError) in
            config.http.maxHeaderSectionLength = try parseInteger(raw, source: source, range: 256...(16 << 20), expected: "a byte count 256–16777216")
        },
        Setting(fileKey: "http.maxHeaderFields", environmentVariable: "CLONER_HTTP_MAX_HEADER_FIELDS") { config, raw, source throws(ConfigurationError) in
            config.http.maxHeaderCount = try parseInteger(raw, source: source, range: 1...10_000, expected: "a count 1–10000")
        },
        Setting(fileKey: "http.maxBodyBytes", environmentVariable: "CLONER_HTTP_MAX_BODY_BYTES") { config, raw, source throws(ConfigurationError) in
            config.http.maxBodyLength = try parseInteger(raw, source: source, range: 0...(1 << 31), expected: "a byte count 0–2147483648")
        },
        Setting(fileKey: "http.headerTimeoutSeconds", environmentVariable: "CLONER_HTTP_HEADER_TIMEOUT") { config, raw, source throws(ConfigurationError) in
            config.http.headerTimeout = try parseSeconds(raw, source: source)
        },
        Setting(fileKey: "http.bodyReadTimeoutSeconds", environmentVariable: "CLONER_HTTP_BODY_READ_TIMEOUT") {
            config, raw, source throws(ConfigurationError) in
            config.http.bodyReadTimeout = try parseSeconds(raw, source: source)
        },
        Setting(fileKey: "http.bodyTimeoutSeconds", environmentVariable: "CLONER_HTTP_BODY_TIMEOUT") { config, raw, source throws(ConfigurationError) in
            config.http.bodyTimeout = try parseSeconds(raw, source: source)
        },
        Setting(fileKey: "http.bodyMinimumRateBytesPerSecond", environmentVariable: "CLONER_HTTP_BODY_MIN_RATE") {
            config, raw, source throws(ConfigurationError) in
            config.http.bodyMinimumRate = try parseInteger(raw, source: source, range: 1...(1 << 30), expected: "bytes per second 1–1073741824")
        },
        Setting(fileKey: "http.bodyMaximumTimeoutSeconds", environmentVariable: "CLONER_HTTP_BODY_MAX_TIMEOUT") {
            config, raw, source throws(ConfigurationError) in
            config.http.bodyMaximumTimeout = try parseSeconds(raw, source: source)
        },
        Setting(fileKey: "http.idleTimeoutSeconds", environmentVariable: "CLONER_HTTP_IDLE_TIMEOUT") { config, raw, source throws(ConfigurationError) in
            config.http.idleTimeout = try parseSeconds(raw, source: source)
        },
        Setting(fileKey: "http.writeTimeoutSeconds", environmentVariable: "CLONER_HTTP_WRITE_TIMEOUT") { config, raw, source throws(ConfigurationError) in
            config.http.writeTimeout = try parseSeconds(raw, source: source)
        },
        Setting(fileKey: "http.maxRequestsPerConnection", environmentVariable: "CLONER_HTTP_MAX_REQUESTS_PER_CONNECTION") {
            config, raw, source throws(ConfigurationError) in
            config.http.maxRequestsPerConnection = try parseInteger(raw, source: source, range: 1...Int(Int32.max), expected: "a positive integer")
        },
        Setting(fileKey: "http.maxConnections", environmentVariable: "CLONER_HTTP_MAX_CONNECTIONS") { config, raw, source throws(ConfigurationError) in
            config.http.maxConnections = try parseInteger(raw, source: source, range: 1...1_000_000, expected: "a count 1–1000000")
        },
        Setting(fileKey: "http.maxConnectionsPerClient", environmentVariable: "CLONER_HTTP_MAX_CONNECTIONS_PER_CLIENT") {
            config, raw, source throws(ConfigurationError) in
            config.http.maxConnectionsPerClient = try parseInteger(raw, source: source, range: 1...1_000_000, expected: "a count 1–1000000")
        },
        Setting(fileKey: "http.maxQueuedOutputBytes", environmentVariable: "CLONER_HTTP_MAX_QUEUED_OUTPUT_BYTES") {
            config, raw, source throws(ConfigurationError) in
            config.http.maxQueuedOutputBytes = try parseInteger(raw, source: source, range: 1024...(1 << 30), expected: "bytes 1024–1073741824")
        },
    ]

    /// Every environment variable the service reads, for `--help` and the README.
    public static var environmentVariables: [String] {
        ["CLONER_CONFIG"] + settings.compactMap(\.environmentVariable)
    }

    /// Members a settings-file object may carry as a note to people; JSON has no comments.
    static let commentKey = "$comment"

    mutating func applySettingsFile(_ data: Data, path: String) throws(ConfigurationError) {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: data)
        } catch {
            throw ConfigurationError(source: path, message: error.description)
        }
        guard case .object(let top) = document else {
            throw ConfigurationError(source: path, message: "the settings file must hold a JSON object")
        }
        let byKey = Dictionary(uniqueKeysWithValues: Self.settings.map { ($0.fileKey, $0) })
        for key in top.keys.sorted() where key != Self.commentKey {
            let value = top[key]!
            if key == "http" {
                guard case .object(let members) = value else {
                    throw ConfigurationError(source: "\(path): http", value: RawValue.json(value).display, message: "expected an object")
                }
                for member in members.keys.sorted() where member != Self.commentKey {
                    guard let setting = byKey["http.\(member)"] else {
                        throw ConfigurationError(source: "\(path): http.\(member)", message: "unknown setting")
                    }
                    try setting.apply(&self, .json(members[member]!), "\(path): http.\(member)")
                }
                continue
            }
            guard let setting = byKey[key], !key.hasPrefix("http.") else {
                throw ConfigurationError(source: "\(path): \(key)", message: "unknown setting")
            }
            try setting.apply(&self, .json(value), "\(path): \(key)")
        }
    }

    /// An empty variable counts as unset, as container tooling often passes `VAR=` for "no value".
    mutating func applyEnvironment(_ environment: [String: String]) throws(ConfigurationError) {
        for setting in Self.settings {
            guard let name = setting.environmentVariable, let text = environment[name], !text.isEmpty else { continue }
            try setting.apply(&self, .text(text), name)
        }
    }

    mutating func apply(_ overrides: Overrides) throws(ConfigurationError) {
        if let host = overrides.host { self.host = try Self.parseHost(.text(host), source: "--host") }
        if let port = overrides.port {
            self.port = try Self.parseInteger(.text(String(port)), source: "--port", range: 0...65535, expected: "a TCP port 0–65535")
        }
        if let path = overrides.databasePath { databasePath = try Self.parseDatabase(.text(path), source: "--database") }
        if let path = overrides.modelPath { modelPath = try Self.parsePath(.text(path), source: "--model") }
        if let keys = overrides.apiKeys { apiKeys = try Self.checkKeys(keys, source: "--api-key") }
        if let keys = overrides.readOnlyAPIKeys { readOnlyAPIKeys = try Self.checkKeys(keys, source: "--read-api-key") }
        if let path = overrides.tlsCertificatePath { tlsCertificatePath = try Self.parseOptionalPath(.text(path), source: "--tls-cert") }
        if let path = overrides.tlsKeyPath { tlsKeyPath = try Self.parseOptionalPath(.text(path), source: "--tls-key") }
        if let level = overrides.logLevel { logLevel = try Self.parseLogLevel(.text(level), source: "--log-level") }
        if let seconds = overrides.drainTimeoutSeconds {
            drainTimeout = try Self.parseSeconds(.json(.double(seconds)), source: "--drain-timeout")
        }
        if let seconds = overrides.jobLeaseSeconds {
            jobLease = try Self.parseLease(.json(.double(seconds)), source: "--job-lease")
        }
        if let entries = overrides.trustedProxies {
            trustedProxies = try Self.checkTrustedProxies(entries, source: "--trusted-proxy")
        }
        if let on = overrides.proxyProtocol { proxyProtocol = on }
        if let count = overrides.maxObjectsPerClone {
            maxObjectsPerClone = try Self.parseInteger(
                .json(.integer(Int64(count))), source: "--max-objects-per-clone",
                range: 1...Int(Int32.max), expected: "a positive integer")
        }
    }
}

// MARK: - Value parsers

extension ServiceConfiguration {
    static func parseText(_ raw: RawValue, source: String, expected: String) throws(ConfigurationError) -> String {
        switch raw {
        case .text(let text): return text
        case .json(.string(let text)): return text
        case .json: throw ConfigurationError(source: source, value: raw.display, message: "expected \(expected)")
        }
    }

    static func parseHost(_ raw: RawValue, source: String) throws(ConfigurationError) -> String {
        let host = try parseText(raw, source: source, expected: "a host name or IP address")
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "/" || $0.isNewline }) else {
            throw ConfigurationError(source: source, value: host, message: "expected a host name or IP address")
        }
        return host
    }

    static func parsePath(_ raw: RawValue, source: String) throws(ConfigurationError) -> String {
        let path = try parseText(raw, source: source, expected: "a file path")
        guard !path.isEmpty, !path.contains("\0") else {
            throw ConfigurationError(source: source, value: path, message: "expected a file path")
        }
        return path
    }

    /// A SQLite path or a PostgreSQL URI. A refused value is echoed with a URI's password
    /// replaced by `***` (docs/architecture.md#postgresql: a password never appears in an error).
    static func parseDatabase(_ raw: RawValue, source: String) throws(ConfigurationError) -> String {
        guard case .text(let text) = raw.asText else {
            throw ConfigurationError(source: source, value: raw.display, message: "expected a SQLite file path or a postgres:// URI")
        }
        guard !text.isEmpty, !text.contains("\0") else {
            throw ConfigurationError(
                source: source, value: StoreLocation(text).description,
                message: "expected a SQLite file path or a postgres:// URI")
        }
        return text
    }

    /// Null (file) or an empty string turns the setting off.
    static func parseOptionalPath(_ raw: RawValue, source: String) throws(ConfigurationError) -> String? {
        if case .json(.null) = raw { return nil }
        let path = try parseText(raw, source: source, expected: "a file path or null")
        if path.isEmpty { return nil }
        guard !path.contains("\0") else { throw ConfigurationError(source: source, value: path, message: "expected a file path") }
        return path
    }

    static func parseInteger(_ raw: RawValue, source: String, range: ClosedRange<Int>, expected: String) throws(ConfigurationError) -> Int {
        let value: Int?
        switch raw {
        case .text(let text): value = Int(text.trimmingCharacters(in: .whitespaces))
        case .json(.integer(let number)): value = Int(exactly: number)
        default: value = nil
        }
        guard let value, range.contains(value) else {
            throw ConfigurationError(source: source, value: raw.display, message: "expected \(expected)")
        }
        return value
    }

    /// A lease: at least half a second (renewed every third of it, a shorter one would keep the
    /// database busy renewing), at most an hour (a dead replica's jobs would show running that long).
    static let leaseRange: ClosedRange<Duration> = .milliseconds(500) ... .seconds(3600)

    /// Seconds within `leaseRange`.
    static func parseLease(_ raw: RawValue, source: String) throws(ConfigurationError) -> Duration {
        let lease = try parseSeconds(raw, source: source)
        guard leaseRange.contains(lease) else {
            throw ConfigurationError(source: source, value: raw.display, message: "expected a lease of 0.5 to 3600 seconds")
        }
        return lease
    }

    static func parseSeconds(_ raw: RawValue, source: String) throws(ConfigurationError) -> Duration {
        let seconds: Double?
        switch raw {
        case .text(let text): seconds = Double(text.trimmingCharacters(in: .whitespaces))
        case .json(.integer(let number)): seconds = Double(number)
        case .json(.double(let number)): seconds = number
        case .json(.preciseNumber(let text)): seconds = Double(text)
        default: seconds = nil
        }
        guard let seconds, seconds.isFinite, seconds > 0, seconds <= 366 * 86_400 else {
            throw ConfigurationError(source: source, value: raw.display, message: "expected a number of seconds greater than 0")
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    static func parseLogLevel(_ raw: RawValue, source: String) throws(ConfigurationError) -> Logger.Level {
        let text = try parseText(raw, source: source, expected: "a log level")
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            let names = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigurationError(source: source, value: text, message: "expected one of \(names)")
        }
        return level
    }

    /// A JSON array of strings, or comma-separated text (spaces around keys ignored); null in the
    /// file means no keys.
    ///
    /// A setting that is present but holds no key (`CLONER_API_KEYS=' , '`, `"apiKeys": []`) is
    /// refused rather than read as "no keys": authentication would silently be off while the
    /// operator believes a key protects the service. Leaving the setting out, an empty variable,
    /// or null in the file is how to say "no keys".
    static func parseKeys(_ raw: RawValue, source: String) throws(ConfigurationError) -> [String] {
        let keys: [String]
        switch raw {
        case .json(.null):
            return []
        case .text(let text):
            keys = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !keys.isEmpty else {
                throw ConfigurationError(
                    source: source, value: "<no key>",
                    message: "the setting is present but holds no key (only commas and spaces); give at least one key, or unset it to turn authentication off")
            }
        case .json(.array(let elements)):
            var collected: [String] = []
            for element in elements {
                guard case .string(let key) = element else {
                    throw ConfigurationError(source: source, value: raw.display, message: "expected an array of key strings")
                }
                collected.append(key)
            }
            guard !collected.isEmpty else {
                throw ConfigurationError(
                    source: source, value: "[]",
                    message: "the setting is present but holds no key; give at least one key, or null to turn authentication off")
            }
            keys = collected
        default:
            throw ConfigurationError(source: source, value: raw.display, message: "expected an array of key strings")
        }
        return try checkKeys(keys, source: source)
    }

    /// A JSON array of strings, or comma-separated text: addresses and CIDR ranges.
    static func parseTrustedProxies(_ raw: RawValue, source: String) throws(ConfigurationError) -> TrustedProxies {
        switch raw {
        case .text(let text):
            return try checkTrustedProxies(text.split(separator: ",").map(String.init), source: source)
        case .json(.array(let elements)):
            var entries: [String] = []
            for element in elements {
                guard case .string(let entry) = element else {
                    throw ConfigurationError(source: source, value: raw.display, message: "expected an array of addresses and CIDR ranges")
                }
                entries.append(entry)
            }
            return try checkTrustedProxies(entries, source: source)
        default:
            throw ConfigurationError(source: source, value: raw.display, message: "expected an array of addresses and CIDR ranges")
        }
    }

    static func checkTrustedProxies(_ entries: [String], source: String) throws(ConfigurationError) -> TrustedProxies {
        do {
            return try TrustedProxies(entries)
        } catch {
            throw ConfigurationError(source: source, value: error.entry, message: error.reason)
        }
    }

    /// JSON true/false, or text `true`/`false`/`1`/`0`/`yes`/`no` (any case).
    static func parseBool(_ raw: RawValue, source: String) throws(ConfigurationError) -> Bool {
        switch raw {
        case .json(.bool(let value)): return value
        case .text(let text):
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true", "1", "yes": return true
            case "false", "0", "no": return false
            default: break
            }
        default: break
        }
        throw ConfigurationError(source: source, value: raw.display, message: "expected true or false")
    }

    /// The value is NOT echoed: an error message must not put a secret into a log.
    static func checkKeys(_ keys: [String], source: String) throws(ConfigurationError) -> [String] {
        for (position, key) in keys.enumerated() {
            if let problem = APIKeyAuthenticator.validateKeySpecification(key) {
                throw ConfigurationError(source: source, value: "<key \(position + 1) of \(keys.count)>", message: problem)
            }
        }
        return keys
    }

    static func parseCloneRuleKeys(_ raw: RawValue, source: String) throws(ConfigurationError) -> CloneRuleKeys {
        guard case .json(.object(let members)) = raw else {
            throw ConfigurationError(source: source, value: raw.display, message: "expected an object of userInfo key names")
        }
        var keys = CloneRuleKeys.moCloner
        let fields: [(String, WritableKeyPath<CloneRuleKeys, String>)] = [
            ("exclude", \.exclude), ("rebuild", \.rebuild), ("followParent", \.followParent),
            ("withoutParent", \.withoutParent), ("clone", \.clone),
        ]
        for name in members.keys.sorted() where name != commentKey {
            guard let field = fields.first(where: { $0.0 == name }) else {
                throw ConfigurationError(source: "\(source).\(name)", message: "unknown setting")
            }
            guard case .string(let key) = members[name]!, !key.isEmpty else {
                throw ConfigurationError(source: "\(source).\(name)", value: RawValue.json(members[name]!).display, message: "expected a non-empty string")
            }
            keys[keyPath: field.1] = key
        }
        let names = [keys.exclude, keys.rebuild, keys.followParent, keys.withoutParent, keys.clone]
        guard Set(names).count == names.count else {
            throw ConfigurationError(source: source, value: raw.display, message: "two clone rules share one userInfo key name")
        }
        return keys
    }
}
