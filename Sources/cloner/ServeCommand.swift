import ArgumentParser
import ClonerService
import Dispatch
import Foundation
import Logging

/// `cloner serve` (and plain `cloner`): runs the service until SIGTERM or SIGINT, then drains.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Cloner HTTP service.",
        discussion: """
            Settings come from built-in defaults, then the settings file (config/cloner.json, or --config / CLONER_CONFIG), \
            then environment variables (\(ServiceConfiguration.environmentVariables.joined(separator: ", "))), then these flags. \
            On SIGTERM or SIGINT the service answers /readyz with 503, keeps its listener open for the drain grace \
            (CLONER_DRAIN_GRACE, default 2 s) so load balancers see that, then stops accepting, finishes in-flight requests \
            and clone jobs within the drain timeout, and exits 0.
            """)

    @Option(name: .customLong("config"), help: "Settings file (JSON). Default: config/cloner.json when it exists.")
    var settingsFile: String?

    @Option(help: "Address to listen on (IPv4 or IPv6). Default 127.0.0.1; 0.0.0.0 or :: for every interface.")
    var host: String?

    @Option(help: "Port to listen on. Default 8080; 0 picks a free port.")
    var port: Int?

    @Option(help: "SQLite database file (created on first start), or a postgres:// or postgresql:// URI in libpq's format. Default data/cloner.sqlite.")
    var database: String?

    @Option(help: "Data model file. Default config/model.json.")
    var model: String?

    @Option(name: .customLong("tls-cert"), help: "PEM certificate chain: serve HTTPS.")
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: "PEM private key of --tls-cert.")
    var tlsKey: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical. Default info.")
    var logLevel: String?

    @Option(name: .customLong("drain-timeout"), help: "Seconds to finish in-flight work on shutdown. Default 30.")
    var drainTimeout: Double?

    @Option(name: .customLong("max-objects"), help: "Largest clone, in objects created. Default \(ServiceConfiguration().maxObjectsPerClone).")
    var maxObjects: Int?

    @Option(
        name: .customLong("job-lease"), help: "Seconds a replica's hold on its async jobs and Idempotency-Key reservations lasts unless renewed. Default 15.")
    var jobLease: Double?

    @Option(
        name: .customLong("trusted-proxy"),
        help: "A load balancer or proxy (address or CIDR range, repeatable) whose PROXY header and Forwarded / X-Forwarded-For name the client. Default: none.")
    var trustedProxies: [String] = []

    @Flag(
        name: .customLong("proxy-protocol"), inversion: .prefixedNo,
        help: "Connections from trusted proxies start with a PROXY protocol header (haproxy send-proxy-v2). Default off.")
    var proxyProtocol: Bool?

    func run() throws {
        let overrides = ServiceConfiguration.Overrides(
            settingsFile: settingsFile, host: host, port: port, databasePath: database, modelPath: model,
            tlsCertificatePath: tlsCertificate, tlsKeyPath: tlsKey, logLevel: logLevel,
            drainTimeoutSeconds: drainTimeout, maxObjectsPerClone: maxObjects, jobLeaseSeconds: jobLease,
            trustedProxies: trustedProxies.isEmpty ? nil : trustedProxies, proxyProtocol: proxyProtocol)
        let configuration: ServiceConfiguration
        do {
            configuration = try ServiceConfiguration.load(overrides: overrides)
        } catch {
            FileHandle.standardError.write(Data("cloner: invalid configuration: \(error)\n".utf8))
            throw ExitCode(2)
        }
        // Every other logger of the process (libraries') writes JSON lines to standard output too.
        JSONLogHandler.bootstrap(level: configuration.logLevel)
        let logger = Logger(label: "cloner")
        let metrics = ServiceMetrics()
        metrics.bootstrapMetricsSystem()

        let application: ClonerApplication
        do {
            application = try ClonerApplication.launch(configuration: configuration, metrics: metrics).application
        } catch {
            FileHandle.standardError.write(Data("cloner: cannot start: \(error)\n".utf8))
            throw ExitCode(1)
        }

        // Signals are taken by dispatch sources, not handlers: the drain must run on a normal
        // thread, where it may block and log.
        for signalNumber in [SIGTERM, SIGINT] { signal(signalNumber, SIG_IGN) }
        let shutdownQueue = DispatchQueue(label: "cloner.shutdown")
        let sources = [SIGTERM, SIGINT].map { (signalNumber: Int32) -> any DispatchSourceSignal in
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: shutdownQueue)
            source.setEventHandler {
                logger.info("signal received, shutting down", metadata: ["signal": "\(signalNumber == SIGTERM ? "SIGTERM" : "SIGINT")"])
                application.shutdown()
                Foundation.exit(0)
            }
            source.resume()
            return source
        }
        withExtendedLifetime(sources) { dispatchMain() }
    }
}
