import ClonerClone
import ClonerConcurrency
import ClonerHTTP
import ClonerModel
import ClonerStore
import Foundation
import Logging
import Synchronization

/// The Cloner service: the model, the store, the clone engine and the HTTP server wired together
/// (docs/architecture.md#http-contract, #operations). The executable builds one from the configuration, starts it, and shuts it
/// down on SIGTERM; tests build one on a temporary database and an ephemeral port.
///
/// The composition root: it builds one controller per group of routes (records, clones, jobs,
/// operations), each given only what it needs, and keeps for itself the lifecycle (start, drain,
/// stop), the housekeeping, authorization and the route table that dispatches to the controllers.
public final class ClonerApplication: Sendable {
    public let configuration: ServiceConfiguration
    public let model: DataModel
    public let store: IncrementalStore
    public let engine: CloneEngine
    public let metrics: ServiceMetrics
    let logger: Logger
    let authenticator: APIKeyAuthenticator
    /// Reads and writes run on separate workers: a write waiting for the writer lock (behind a long
    /// clone) must never hold up a read, which WAL lets run beside the writer.
    let readWorkers: StoreWorkers
    let writeWorkers: StoreWorkers
    /// Clone jobs still running in this process: the drain waits for them.
    let jobs: JobRegistry
    let recordsController: RecordsController
    let clonesController: ClonesController
    let jobsController: JobsController
    let blobsController: BlobsController
    let travelController: GraphTravelController
    /// The exports' spool budget and producers, handed to each export.
    let exportSpools: ExportSpools
    let operationsController: OperationsController
    /// Pending blobs of uploads whose process died, removed at the housekeeping.
    let abandonedUploads: AbandonedUploadSweeper
    private let server: LockedValue<HTTPServer?> = LockedValue(nil)
    private let housekeepingQueue = DispatchQueue(label: "cloner.housekeeping", qos: .utility)
    /// This replica's id and the leases on its jobs and idempotency reservations (docs/architecture.md#replicas).
    let leases: JobLeaseKeeper
    private let stopped = Atomic<Bool>(false)
    /// Read workers: two per core, at least this many, so a few slow reads never hold up the rest.
    static let minimumReadWorkers = 4
    /// Write workers: they mostly wait for the writer (SQLite) or a pooled connection, so a few do.
    static let writeWorkerCount = 4
    /// How often expired idempotency answers and finished jobs are purged.
    static let housekeepingIntervalSeconds = 3600
    /// Where the access log's lines go (the logger's lines go where its handler writes).
    let logOutput: Int32

    /// Loads the model and opens (creating or migrating) the store; throws `ModelError` or
    /// `StoreError` with every detail an operator needs, before anything listens.
    public init(
        configuration: ServiceConfiguration, logger: Logger = Logger(label: "cloner"), metrics: ServiceMetrics = ServiceMetrics(),
        logOutput: Int32 = STDOUT_FILENO
    ) throws {
        self.configuration = configuration
        self.logOutput = logOutput
        self.logger = logger
        self.metrics = metrics
        let model = try ModelLoader.load(contentsOf: URL(fileURLWithPath: configuration.modelPath), keys: configuration.cloneRuleKeys)
        self.model = model
        // A store of an older format migrates before the service listens: say how far it is.
        let store = try IncrementalStore(
            location: configuration.storeLocation, model: model, writerWait: configuration.writerWait,
            maximumConnections: configuration.databasePoolSize, requireSynchronousStandby: configuration.requireSynchronousStandby,
            log: { [logger] line in logger.info("store migration", metadata: ["progress": "\(line)"]) },
            connectionEvents: { [logger] event in
                switch event {
                case .lost(let reason):
                    logger.error("database lost; answering 503 database_unavailable until a primary answers", metadata: ["reason": "\(reason)"])
                case .restored(let node):
                    logger.notice("database back", metadata: ["node": "\(node)"])
                }
            })
        self.store = store
        let engine = CloneEngine(
            store: store,
            maximumRunning: configuration.maxConcurrentClones
                ?? CloneEngine.defaultMaximumRunning(for: store, poolSize: configuration.databasePoolSize))
        self.engine = engine
        let jobs = JobRegistry()
        self.jobs = jobs
        let leases = JobLeaseKeeper(store: store, lease: configuration.jobLease, logger: logger, queue: housekeepingQueue, jobs: jobs)
        self.leases = leases
        let authenticator = APIKeyAuthenticator(configuration: configuration)
        self.authenticator = authenticator
        let readWorkerCount = max(Self.minimumReadWorkers, ProcessInfo.processInfo.activeProcessorCount * 2)
        self.readWorkers = StoreWorkers(label: "read", count: readWorkerCount)
        self.exportSpools = ExportSpools(
            limit: configuration.maxExportSpoolBytes,
            producers: ExportProducers.defaultLimit(readWorkers: readWorkerCount, poolSize: configuration.databasePoolSize), metrics: metrics)
        let writeWorkers = StoreWorkers(label: "write", count: Self.writeWorkerCount)
        self.writeWorkers = writeWorkers
        self.recordsController = RecordsController(
            model: model, store: store, maximumObjects: configuration.maxObjectsPerRequest,
            maximumValues: configuration.maxValuesPerRequest, inlineBinaryBytes: configuration.maxInlineBinaryBytes,
            pageTextBytes: configuration.maxPageTextBytes)
        // One runner for every asynchronous operation, and one key space for every idempotent one.
        let runner = JobRunner(
            store: store, idempotency: Idempotency(store: store, metrics: metrics, logger: logger, leases: leases), jobs: jobs, logger: logger)
        self.clonesController = ClonesController(
            model: model, engine: engine, metrics: metrics, logger: logger,
            maximumObjects: configuration.maxObjectsPerClone, maximumCopies: configuration.maxCopies,
            maximumSetBytes: configuration.maxCloneSetBytes, maximumValues: configuration.maxValuesPerRequest,
            admission: CloneAdmission(engine: engine, deadline: store.writerWait, maximumInFlight: configuration.maxQueuedClones),
            runner: runner, writeWorkers: writeWorkers)
        self.jobsController = JobsController(store: store, jobs: jobs, readWorkers: readWorkers, replicaID: leases.replicaID)
        self.blobsController = BlobsController(
            model: model, store: store, readWorkers: readWorkers, bufferedUploadBytes: configuration.maxBufferedUploadBytes, metrics: metrics)
        self.abandonedUploads = AbandonedUploadSweeper(store: store)
        self.travelController = GraphTravelController(
            model: model, store: store, logger: logger,
            maximumObjects: configuration.maxObjectsPerClone, readWorkers: readWorkers,
            writeWorkers: writeWorkers, runner: runner, bufferedImportBytes: configuration.maxBufferedImportBytes,
            maximumValueBytes: configuration.http.maxBodyLength, concurrentImports: configuration.maxConcurrentImports, metrics: metrics)
        self.operationsController = OperationsController(
            model: model, store: store, metrics: metrics, cloneQueue: engine.runQueue,
            requiresKeys: authenticator.isEnabled)
    }

    /// Binds and starts serving; returns the bound port (useful with port 0).
    @discardableResult
    public func start() throws -> Int {
        var tls: TLSConfiguration?
        if let certificate = configuration.tlsCertificatePath, let key = configuration.tlsKeyPath {
            tls = TLSConfiguration(certificateChainPath: certificate, privateKeyPath: key)
        }
        let serverConfiguration = HTTPServer.Configuration(
            host: configuration.host, port: configuration.port, limits: configuration.http, tls: tls,
            trustedProxies: configuration.trustedProxies, proxyProtocol: configuration.proxyProtocol)
        let server = HTTPServer(
            configuration: serverConfiguration, router: makeRouter(),
            hooks: makeHooks(eventLoopCount: serverConfiguration.eventLoopCount))
        let port = try server.start()
        self.server.withLock { $0 = server }
        do {
            // Jobs whose replica's lease ran out (a process that died, this one's previous life
            // included) read failed; live replicas' jobs are left alone. Then every third of the
            // lease: renew this replica's leases, scan again.
            try leases.scan()
        } catch StoreError.unavailable(let reason, _) {
            // A primary that takes no writes yet (one without the synchronous standby
            // `requireSynchronousStandby` asks for): the lease tick scans again, and the service
            // answers 503 for writes until then, as after a loss.
            logger.warning("the scan for expired leases waits for the database to take writes", metadata: ["reason": "\(reason)"])
        } catch {
            server.shutdown(drainTimeout: .zero)
            throw error
        }
        purgeExpiredRecords()
        startHousekeeping()
        leases.start()
        logPreparation()
        logger.info(
            "listening",
            metadata: [
                "replica": "\(leases.replicaID)", "job_lease_seconds": "\(JobLeaseKeeper.seconds(leases.lease))",
                "host": "\(configuration.host)", "port": "\(port)", "tls": "\(tls != nil)",
                "database": "\(store.location)", "model": "\(configuration.modelPath)",
                "entities": "\(model.entities.count)", "auth": "\(authenticator.isEnabled)",
                "trusted_proxies": "\(configuration.trustedProxies)", "proxy_protocol": "\(configuration.proxyProtocol)",
            ])
        return port
    }

    /// A start that changed the database says so before `listening`: a migration names the models
    /// (by fingerprint) and each change, so a schema change is never silent.
    private func logPreparation() {
        switch store.preparation {
        case .created:
            logger.info("store created", metadata: ["database": "\(store.location)", "entities": "\(model.entities.count)"])
        case .unchanged:
            break
        case let .migrated(from, to, changes):
            logger.notice(
                "store migrated",
                metadata: [
                    "database": "\(store.location)", "from_schema": "\(from)", "to_schema": "\(to)",
                    "changes": "\(changes.count)", "steps": "\(changes.joined(separator: "; "))",
                ])
        }
    }

    /// True from the start of a shutdown on; `/readyz` answers 503.
    public var isDraining: Bool { server.withLock { $0?.isDraining ?? false } }

    /// Graceful stop (docs/architecture.md#signals-and-drain): `/readyz` turns 503 at once; after `drainGrace` (listener
    /// still open, so load balancers can see that) stop accepting, let in-flight requests finish, wait for
    /// running clone and import jobs (each commits or rolls back as a whole), all within `drainTimeout`.
    public func shutdown(drainTimeout: Duration? = nil) {
        let timeout = drainTimeout ?? configuration.drainTimeout
        let start = ContinuousClock.now
        let running = server.withLock { $0 }
        stopped.store(true, ordering: .releasing)
        logger.info(
            "draining",
            metadata: [
                "timeout_seconds": "\(timeout.components.seconds)",
                "grace": "\(configuration.drainGrace)",
            ])
        running?.shutdown(drainTimeout: timeout, grace: configuration.drainGrace)
        let remaining = max(.zero, timeout - (ContinuousClock.now - start))
        let unfinished = jobs.waitForRunningJobs(timeout: remaining)
        leases.stop()
        if unfinished > 0 {
            logger.warning("clone jobs still running at the end of the drain; they roll back if the process exits", metadata: ["jobs": "\(unfinished)"])
        }
        store.closeIdleConnections()
        logger.info("stopped")
    }

    /// Forgets idempotency answers and finished jobs past their retentions (`idempotencyRetention`,
    /// `jobRetention`), and removes uploads that made no progress since the last pass
    /// (`AbandonedUploadSweeper`).
    func purgeExpiredRecords() {
        let cutoff = Date(timeIntervalSinceNow: -Double(configuration.idempotencyRetention.components.seconds))
        let jobCutoff = Date(timeIntervalSinceNow: -Double(configuration.jobRetention.components.seconds))
        do {
            let (answers, oldJobs) = try store.write { context in
                (try context.purgeIdempotencyRecords(olderThan: cutoff), try context.purgeJobs(finishedBefore: jobCutoff))
            }
            if answers + oldJobs > 0 {
                logger.info("purged expired records", metadata: ["idempotency": "\(answers)", "jobs": "\(oldJobs)"])
            }
        } catch {
            logger.error("purging expired records failed", metadata: ["error": "\(error)"])
        }
        do {
            let uploads = try abandonedUploads.sweep()
            if uploads > 0 { logger.info("removed abandoned uploads", metadata: ["uploads": "\(uploads)"]) }
        } catch {
            logger.error("removing abandoned uploads failed", metadata: ["error": "\(error)"])
        }
    }

    /// Hourly purge of expired answers and jobs, until shutdown.
    private func startHousekeeping() {
        housekeepingQueue.asyncAfter(deadline: .now() + .seconds(Self.housekeepingIntervalSeconds)) { [weak self] in
            guard let self, !self.stopped.load(ordering: .acquiring) else { return }
            self.purgeExpiredRecords()
            self.startHousekeeping()
        }
    }
}
