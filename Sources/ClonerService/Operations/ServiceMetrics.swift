import CoreMetrics
import ClonerClone
import ClonerConcurrency
import ClonerStore
import Foundation
import Metrics
import Prometheus

/// The service's metrics (docs/architecture.md#logs-and-metrics, `GET /metrics`), kept in a Prometheus registry and
/// recorded through the swift-metrics API.
///
/// Each instance owns its registry and hands its `factory` to every metric explicitly, so tests
/// can make as many instances as they like; only the executable calls `bootstrapMetricsSystem()`
/// (which swift-metrics allows once per process) so that libraries' own metrics land in the same
/// registry and show up on `/metrics` too.
///
/// `route` labels must be route templates (`/{collection}/{id}`), never raw paths: every distinct
/// label set is a time series kept forever.
public final class ServiceMetrics: Sendable {
    /// The media type of `render()`'s output (Prometheus text exposition format 0.0.4).
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    public enum CloneResult: String, Sendable, CaseIterable {
        case succeeded, failed
        case dryRun = "dry_run"
        case replayed
        /// An asynchronous clone stopped by `DELETE /jobs/{id}`: it wrote nothing.
        case cancelled
    }

    public let registry: PrometheusCollectorRegistry
    public let factory: PrometheusMetricsFactory

    private let clonesByResult: [CloneResult: Metrics.Counter]
    private let objectsCloned: Metrics.Counter
    private let cloneDuration: Metrics.Timer
    private let jobsInFlight: Meter
    private let importLineBytes: Meter
    private let importsWaiting: Meter
    private let exportSpoolBytes: Meter
    private let uploadBufferBytes: Meter
    private let requestMetrics: RequestMetricCache
    private let databaseConnections: Meter
    private let databaseConnectionsInUse: Meter
    private let databaseWaiting: Meter
    private let databaseReconnects: Metrics.Counter
    private let databaseNodeLosses: Metrics.Counter
    /// The pool's totals last seen, so its counters step by the difference.
    private let databaseTotalsSeen = LockedValue((reconnects: 0, nodeLosses: 0))
    private let clonesRunning: Meter
    private let clonesWaiting: Meter

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        // Request latencies cluster in milliseconds; clones of large graphs run for seconds to minutes.
        factory.durationHistogramBuckets = [
            "http_request_duration_seconds": [
                .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
                .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
                .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
            ],
            "cloner_clone_duration_seconds": [
                .milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(250), .milliseconds(500),
                .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10), .seconds(30), .seconds(60), .seconds(120), .seconds(300),
            ],
        ]
        self.factory = factory
        var clones: [CloneResult: Metrics.Counter] = [:]
        for result in CloneResult.allCases {
            clones[result] = Metrics.Counter(label: "cloner_clones_total", dimensions: [("result", result.rawValue)], factory: factory)
        }
        clonesByResult = clones
        objectsCloned = Metrics.Counter(label: "cloner_objects_cloned_total", factory: factory)
        cloneDuration = Metrics.Timer(label: "cloner_clone_duration_seconds", factory: factory)
        jobsInFlight = Meter(label: "cloner_jobs_in_flight", factory: factory)
        jobsInFlight.set(0)
        importLineBytes = Meter(label: "cloner_import_line_bytes", factory: factory)
        importLineBytes.set(0)
        importsWaiting = Meter(label: "cloner_imports_waiting", factory: factory)
        importsWaiting.set(0)
        exportSpoolBytes = Meter(label: "cloner_export_spool_bytes", factory: factory)
        exportSpoolBytes.set(0)
        uploadBufferBytes = Meter(label: "cloner_upload_buffer_bytes", factory: factory)
        uploadBufferBytes.set(0)
        requestMetrics = RequestMetricCache(factory: factory)
        databaseConnections = Meter(label: "cloner_database_connections", factory: factory)
        databaseConnectionsInUse = Meter(label: "cloner_database_connections_in_use", factory: factory)
        databaseWaiting = Meter(label: "cloner_database_transactions_waiting", factory: factory)
        databaseReconnects = Metrics.Counter(label: "cloner_database_reconnects_total", factory: factory)
        databaseNodeLosses = Metrics.Counter(label: "cloner_database_node_losses_total", factory: factory)
        clonesRunning = Meter(label: "cloner_clones_running", factory: factory)
        clonesWaiting = Meter(label: "cloner_clones_waiting", factory: factory)
        for meter in [databaseConnections, databaseConnectionsInUse, databaseWaiting, clonesRunning, clonesWaiting] { meter.set(0) }
    }

    /// What is read rather than counted as it happens: the store's pool (nil on SQLite, which has
    /// none) and the clone jobs running and waiting for a turn.
    public func observe(connections: StoreConnectionStatistics?, cloneQueue: CloneRunQueue.Load) {
        clonesRunning.set(cloneQueue.running)
        clonesWaiting.set(cloneQueue.waiting)
        guard let connections else { return }
        databaseConnections.set(connections.open)
        databaseConnectionsInUse.set(connections.inUse)
        databaseWaiting.set(connections.waiting)
        let steps = databaseTotalsSeen.withLock { seen in
            defer { seen = (connections.reconnects, connections.nodeLosses) }
            return (connections.reconnects - seen.reconnects, connections.nodeLosses - seen.nodeLosses)
        }
        if steps.0 > 0 { databaseReconnects.increment(by: steps.0) }
        if steps.1 > 0 { databaseNodeLosses.increment(by: steps.1) }
    }

    /// Makes this registry the process-wide swift-metrics backend. Once per process (swift-metrics
    /// traps on a second bootstrap): the executable calls it, tests never do.
    public func bootstrapMetricsSystem() {
        MetricsSystem.bootstrap(factory)
    }

    /// One finished HTTP request.
    public func recordRequest(route: String, method: String, status: Int, duration: Duration) {
        let metrics = requestMetrics.metrics(route: route, method: method, status: status)
        metrics.count.increment()
        metrics.duration.recordNanoseconds(Self.nanoseconds(duration))
    }

    /// One finished clone; `objects` is the number of objects it created (zero for a failure or a dry run).
    public func recordClone(result: CloneResult, objects: Int, duration: Duration) {
        clonesByResult[result]!.increment()
        if objects > 0 { objectsCloned.increment(by: objects) }
        cloneDuration.recordNanoseconds(Self.nanoseconds(duration))
    }

    public func jobStarted() { jobsInFlight.increment() }

    public func jobFinished() { jobsInFlight.decrement() }

    /// What imports in flight hold for their unfinished lines now, against
    /// `maxBufferedImportBytes`: how close the service is to refusing imports for room.
    public func setImportLineBytes(_ bytes: Int) { importLineBytes.set(bytes) }

    /// Imports waiting for their turn (`maxConcurrentImports`).
    public func setImportsWaiting(_ count: Int) { importsWaiting.set(count) }
    /// What exports in flight keep in their spools for clients that have not taken it yet,
    /// against `maxExportSpoolBytes`: how close the service is to refusing exports for room.
    public func setExportSpoolBytes(_ bytes: Int) { exportSpoolBytes.set(bytes) }
    /// The shares of memory uploads in flight hold now, against `maxBufferedUploadBytes`: how
    /// close the service is to refusing uploads for room.
    public func setUploadBufferBytes(_ bytes: Int) { uploadBufferBytes.set(bytes) }

    /// The body of `GET /metrics`.
    public func render() -> [UInt8] {
        registry.emitToBuffer()
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

extension ServiceMetrics {
    struct RequestKey: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    struct RequestMetrics {
        var count: Metrics.Counter
        var duration: Metrics.Timer
    }

    /// The per-label-set metric objects, made once: looking up a dictionary under a lock is cheaper
    /// than building a swift-metrics handle (and a registry lookup) on every request.
    ///
    /// Sendable through `LockedValue`; the metric objects it hands out are themselves thread-safe.
    final class RequestMetricCache: Sendable {
        private let factory: PrometheusMetricsFactory
        private let cache = LockedValue<[RequestKey: RequestMetrics]>([:])

        init(factory: PrometheusMetricsFactory) {
            self.factory = factory
        }

        func metrics(route: String, method: String, status: Int) -> RequestMetrics {
            let key = RequestKey(route: route, method: method, status: status)
            return cache.withLock { cache in
                if let existing = cache[key] { return existing }
                let made = RequestMetrics(
                    count: Metrics.Counter(
                        label: "http_requests_total",
                        dimensions: [("route", route), ("method", method), ("status", String(status))], factory: factory),
                    // The histogram has no status label: latency per route and method is what alerts use,
                    // and a status label would multiply its buckets.
                    duration: Metrics.Timer(
                        label: "http_request_duration_seconds", dimensions: [("route", route), ("method", method)], factory: factory))
                cache[key] = made
                return made
            }
        }
    }
}
