import ClonerClone
import ClonerHTTP
import ClonerModel
import ClonerStore
import Foundation
import Logging

/// Every setting of the service (docs/architecture.md#configuration), with its default.
///
/// Layers, later ones winning: these defaults, the settings file `config/cloner.json` (optional),
/// `CLONER_*` environment variables, command-line flags (`Overrides`). `load` applies them and
/// validates every value; a bad one is a `ConfigurationError` naming its source and value, raised
/// before the service listens.
public struct ServiceConfiguration: Sendable, Hashable {
    /// Address to listen on; the container sets 0.0.0.0.
    public var host = "127.0.0.1"
    /// 0 picks a free port (tests).
    public var port = 8080
    /// Where the store lives: a SQLite file, created on first start, or a `postgres://` /
    /// `postgresql://` URI in libpq's format (docs/architecture.md#postgresql). Print `storeLocation`, never this:
    /// a URI may hold a password.
    public var databasePath = "data/cloner.sqlite"
    /// PostgreSQL: the most connections this process holds (its share of the server's
    /// `max_connections`, shared by every replica). SQLite ignores it.
    public var databasePoolSize = IncrementalStore.defaultMaximumConnections
    /// PostgreSQL: a write is committed only where a synchronous standby will have it too, and
    /// refused (503 `database_unavailable`) while the primary has none — so a failover never
    /// loses an acknowledged write, at the price of refusing writes while the primary stands
    /// alone (docs/operations.md#high-availability-pg_auto_failover). SQLite ignores it.
    public var requireSynchronousStandby = false
    public var modelPath = "config/model.json"
    /// Full-access keys: plain or `sha256:<hex>`. None configured (in both lists) means no auth.
    public var apiKeys: [String] = []
    public var readOnlyAPIKeys: [String] = []
    /// PEM certificate chain and private key; both or neither.
    public var tlsCertificatePath: String?
    public var tlsKeyPath: String?
    public var logLevel: Logger.Level = .info
    /// How long SIGTERM waits for in-flight requests before exiting.
    public var drainTimeout: Duration = .seconds(30)
    /// The first part of the drain during which the listener stays open and everything is served
    /// while `/readyz` answers 503, so load balancers see the drain before connections are
    /// refused. Counted within `drainTimeout`.
    public var drainGrace: Duration = .seconds(2)
    /// A clone planning more objects than this is refused before anything is written.
    public var maxObjectsPerClone = GraphCopyPlan.defaultMaximumObjects
    /// JSON objects one create or PATCH body may hold below its own (each object it creates is
    /// one); more is a 413 naming the widest member, refused before the body is parsed.
    public var maxObjectsPerRequest = 100_000
    /// JSON values of every kind (objects, arrays, strings, numbers, literals) one create, PATCH
    /// or clone body may hold: a parsed value costs tens of bytes however short its text, so
    /// without this an 8 MiB array of small numbers costs twenty times its size. More is a 413
    /// naming the member that holds the most, refused before the body is parsed.
    public var maxValuesPerRequest = 1_000_000
    /// The largest binary value one streamed `PUT /{collection}/{id}/{attribute}` may send: far
    /// above the JSON body limit, since the bytes are hashed and stored as they arrive and never
    /// held whole. Larger is a 413.
    public var maxUploadBytes = 4 << 30
    /// The bytes of binary values one record answer (a record, a page of a list) carries inline
    /// as base64, counted in record order; a value past it is `null` with `_blobs` naming its
    /// size and route, where it streams. Without it a page of records sharing a 100 MB value
    /// would be gigabytes held for one request. 8 MiB, the JSON body limit: a value a create can
    /// write reads back inline. 0: every binary value but an empty one by its route.
    public var maxInlineBinaryBytes = 8 << 20
    /// The bytes of text and json values one list page carries: the page ends before the record
    /// that would pass it (one record at least) and `next` goes on from there. A text value is at
    /// most what a create's body carries, but a page of a thousand such records would be
    /// gigabytes held for one request. 8 MiB, like the binary budget.
    public var maxPageTextBytes = 8 << 20
    /// The bytes all imports in flight may hold for their unfinished lines (a `ByteBudget`): a
    /// line is one object, up to 256 MiB with its binary values, and is held until it ends. Past
    /// it an import answers 503. 512 MiB: two of the longest lines at once.
    public var maxBufferedImportBytes = 512 << 20
    /// Imports that read, check and write at once; the others wait their turn, in arrival order.
    /// Each holds a few words per object of its document and spools its checked lines (up to the
    /// 1 GiB import body), so this bounds their memory and spool space together.
    public var maxConcurrentImports = 2
    /// The bytes all exports in flight may keep in their spools (a `ByteBudget`): an export
    /// is read at store speed into a temporary file (`TMPDIR`) and sent from there as its client
    /// takes it, so that no transaction or pooled connection waits on a client; this bounds the
    /// disk that clients which ask and never read can take. With less than one piece of room left
    /// an export answers 503; a producer that runs out of room mid-way is cut short. 2 GiB.
    public var maxExportSpoolBytes = 2 << 30
    /// The memory all binary value uploads in flight may hold (`ByteBudget`): each takes, before
    /// its body is read, what it may hold at worst — its unwritten chunk and the body its
    /// connection queues, 1.4 MiB, or twice a smaller `Content-Length` — and past the budget an
    /// upload answers 503. 256 MiB: 178 large uploads at once.
    public var maxBufferedUploadBytes = 256 << 20
    /// The most copies one clone request may ask for (`copies`, docs/architecture.md#many-copies); more is a 422.
    public var maxCopies = CloneRequest.defaultMaximumCopies
    /// The bytes of a clone's root `set` values, counted once per copy (each copy stores its
    /// own): more is a 422 before any work, so `copies` cannot multiply a request body into
    /// gigabytes held and written.
    public var maxCloneSetBytes = CloneRequest.defaultMaximumSetBytes
    /// Clone jobs (synchronous and `respond-async`) running at once; the rest wait for their turn
    /// in arrival order. Nil: the store's default — 4 on SQLite, whose single writer runs them one
    /// after another anyway; on PostgreSQL all but two of `databasePoolSize`'s connections.
    /// Admission is by time: a clone is refused (503) only when the work ahead of it would pass
    /// the writer wait, or `maxQueuedClones` are already in flight.
    public var maxConcurrentClones: Int?
    /// Clone requests in flight (running, waiting, or on their way to the queue) at most: a bound
    /// on the memory a burst of clones holds, past which one more answers 503.
    public var maxQueuedClones = 10_000
    /// How long a write waits for its turn before it is refused with a 503: on SQLite for the
    /// single writer, on PostgreSQL for a pooled connection. Clone admission measures the queue
    /// against it too.
    public var writerWait: Duration = .seconds(30)
    /// How long an `Idempotency-Key`'s first answer is kept for replay.
    public var idempotencyRetention: Duration = .seconds(24 * 3600)
    /// How long a finished job (succeeded, failed or cancelled) still answers `GET /jobs/{id}`
    /// and lists in `GET /jobs`, counted from when it finished; then housekeeping forgets it.
    public var jobRetention: Duration = .seconds(24 * 3600)
    /// How long a replica's hold on its async jobs and `Idempotency-Key` reservations lasts
    /// unless renewed (it renews every third of it): a replica that died leaves them, and any
    /// other replica marks them failed / released within this plus a third of it (docs/architecture.md#replicas).
    public var jobLease: Duration = .seconds(15)
    /// The `userInfo` key names carrying clone rules (renamable as MOCloner allows).
    public var cloneRuleKeys = CloneRuleKeys.moCloner
    public var http = HTTPLimits()
    /// Load balancers and proxies whose word about the client is taken (addresses and CIDR
    /// ranges): their `Forwarded` / `X-Forwarded-For` fields, and with `proxyProtocol` the PROXY
    /// protocol header each of their connections starts with. Empty (the default) trusts nobody.
    public var trustedProxies = TrustedProxies()
    /// Every connection from a trusted proxy starts with a PROXY protocol header (haproxy's
    /// `send-proxy-v2`, or version 1); without one it is closed. Needs `trustedProxies`; plain
    /// HTTP only (a proxy in front of this server terminates TLS).
    public var proxyProtocol = false
    /// The settings file that was read, if any (for the start-up log line).
    public var settingsFile: String?

    /// Values given on the command line; nil leaves the lower layers' value.
    public struct Overrides: Sendable, Hashable {
        /// `--config`: a settings file that must exist (the default one is optional).
        public var settingsFile: String?
        public var host: String?
        public var port: Int?
        public var databasePath: String?
        public var modelPath: String?
        public var apiKeys: [String]?
        public var readOnlyAPIKeys: [String]?
        public var tlsCertificatePath: String?
        public var tlsKeyPath: String?
        public var logLevel: String?
        public var drainTimeoutSeconds: Double?
        public var maxObjectsPerClone: Int?
        public var jobLeaseSeconds: Double?
        /// `--trusted-proxy`, repeatable.
        public var trustedProxies: [String]?
        public var proxyProtocol: Bool?

        public init(
            settingsFile: String? = nil, host: String? = nil, port: Int? = nil, databasePath: String? = nil,
            modelPath: String? = nil, apiKeys: [String]? = nil, readOnlyAPIKeys: [String]? = nil,
            tlsCertificatePath: String? = nil, tlsKeyPath: String? = nil, logLevel: String? = nil,
            drainTimeoutSeconds: Double? = nil, maxObjectsPerClone: Int? = nil, jobLeaseSeconds: Double? = nil,
            trustedProxies: [String]? = nil, proxyProtocol: Bool? = nil
        ) {
            self.settingsFile = settingsFile
            self.host = host
            self.port = port
            self.databasePath = databasePath
            self.modelPath = modelPath
            self.apiKeys = apiKeys
            self.readOnlyAPIKeys = readOnlyAPIKeys
            self.tlsCertificatePath = tlsCertificatePath
            self.tlsKeyPath = tlsKeyPath
            self.logLevel = logLevel
            self.drainTimeoutSeconds = drainTimeoutSeconds
            self.maxObjectsPerClone = maxObjectsPerClone
            self.jobLeaseSeconds = jobLeaseSeconds
            self.trustedProxies = trustedProxies
            self.proxyProtocol = proxyProtocol
        }
    }

    /// The built-in defaults.
    public init() {}

    /// `databasePath` as the store reads it; its description hides a URI's password.
    public var storeLocation: StoreLocation { StoreLocation(databasePath) }

    /// Where the settings file is looked for when neither `--config` nor `CLONER_CONFIG` names one.
    public static let defaultSettingsFile = "config/cloner.json"

    /// Builds the configuration from all layers and validates it.
    /// - Parameters:
    ///   - environment: the process environment; tests pass their own.
    ///   - defaultSettingsFile: read when it exists and no file is named explicitly.
    public static func load(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        overrides: Overrides = Overrides(),
        defaultSettingsFile: String = ServiceConfiguration.defaultSettingsFile
    ) throws(ConfigurationError) -> ServiceConfiguration {
        var configuration = ServiceConfiguration()
        let explicitFile = overrides.settingsFile ?? environment["CLONER_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        let path = explicitFile ?? defaultSettingsFile
        if FileManager.default.fileExists(atPath: path) {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw ConfigurationError(source: path, message: "cannot read the settings file: \(error.localizedDescription)")
            }
            try configuration.applySettingsFile(data, path: path)
            configuration.settingsFile = path
        } else if let explicitFile {
            let source = overrides.settingsFile != nil ? "--config" : "CLONER_CONFIG"
            throw ConfigurationError(source: source, value: explicitFile, message: "settings file not found")
        }
        try configuration.applyEnvironment(environment)
        try configuration.apply(overrides)
        try configuration.validate()
        return configuration
    }

    /// Checks that hold across settings, after every layer is applied.
    public func validate() throws(ConfigurationError) {
        switch (tlsCertificatePath, tlsKeyPath) {
        case (nil, nil), (.some, .some): break
        case (.some(let certificate), nil):
            throw ConfigurationError(
                source: "CLONER_TLS_KEY (tlsKey, --tls-key)", message: "the TLS certificate \(certificate) is configured without its private key")
        case (nil, .some(let key)):
            throw ConfigurationError(
                source: "CLONER_TLS_CERT (tlsCertificate, --tls-cert)", message: "the TLS private key \(key) is configured without its certificate")
        }
        if http.bodyTimeout > http.bodyMaximumTimeout {
            throw ConfigurationError(
                source: "http.bodyTimeoutSeconds", value: "\(http.bodyTimeout)",
                message: "must not exceed http.bodyMaximumTimeoutSeconds (\(http.bodyMaximumTimeout))")
        }
        if proxyProtocol && trustedProxies.isEmpty {
            throw ConfigurationError(
                source: "CLONER_PROXY_PROTOCOL (proxyProtocol, --proxy-protocol)", value: "true",
                message: "no trusted proxies are configured (CLONER_TRUSTED_PROXIES), so no connection would carry the header")
        }
        if proxyProtocol && tlsCertificatePath != nil {
            throw ConfigurationError(
                source: "CLONER_PROXY_PROTOCOL (proxyProtocol, --proxy-protocol)", value: "true",
                message: "the PROXY protocol is read on plain HTTP only: let the proxy terminate TLS, or turn one of them off")
        }
        if http.maxHeaderFieldLength > http.maxHeaderSectionLength {
            throw ConfigurationError(
                source: "http.maxHeaderFieldBytes", value: String(http.maxHeaderFieldLength),
                message: "must not exceed http.maxHeaderSectionBytes (\(http.maxHeaderSectionLength))")
        }
    }
}
