import ClonerService
import ClonerTestSupport
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The Cloner service started inside the test process: the real `ClonerApplication` and
/// `HTTPServer`, started by `ClonerApplication.launch` exactly as `cloner serve` starts them, on
/// 127.0.0.1 with an ephemeral port, on a SQLite file in the test's folder or a fresh database in
/// the PostgreSQL test cluster. Tests talk to it over real sockets (`client`) and may read its
/// database directly (`sql`, `count`).
///
/// Starting one costs opening a store, not starting a process, so each test gets its own.
/// What needs a process of its own — signals, `kill -9`, replicas, the command line,
/// configuration read from files, the environment and flags — stays with the end-to-end tests
/// of the `cloner` executable.
///
/// Settings come as `CLONER_*` variables (`environment`, read by the same code that reads the
/// process environment, never from it) and `overrides` (what the flags set). The drain grace is
/// zero unless a test sets it, so stopping does not wait for load balancers that are not there.
package final class TestService: RunningService, Sendable {
    package let application: ClonerApplication
    package let port: Int
    package let directory: URL
    package let backend: StoreBackendKind
    package let databaseLocation: String
    /// The SQLite file (on `.postgreSQL`, the path a SQLite database would have had).
    package let databasePath: String
    /// Every line the service logged — the JSON log and the access log — as `cloner serve`
    /// prints them on its standard output.
    package let log: ServiceOutput
    private let logDescriptor: Int32
    private let stopped = Atomic<Bool>(false)

    private init(
        application: ClonerApplication, port: Int, directory: URL, backend: StoreBackendKind,
        databaseLocation: String, databasePath: String, log: ServiceOutput, logDescriptor: Int32
    ) {
        self.application = application
        self.port = port
        self.directory = directory
        self.backend = backend
        self.databaseLocation = databaseLocation
        self.databasePath = databasePath
        self.log = log
        self.logDescriptor = logDescriptor
    }

    /// Starts the service in `directory` (its database `directory/cloner.sqlite` on SQLite) with
    /// the sample model unless `overrides` name another, and returns once it listens. On
    /// `.postgreSQL` the database is a fresh one in the test cluster, or `sharedDatabase`.
    package static func start(
        directory: URL, backend: StoreBackendKind = .sqlite, environment: [String: String] = [:],
        overrides: ServiceConfiguration.Overrides = .init(),
        sharedDatabase: String? = nil
    ) async throws -> TestService {
        try await Blocking.run {
            try startNow(directory: directory, backend: backend, environment: environment, overrides: overrides, sharedDatabase: sharedDatabase)
        }
    }

    private static func startNow(
        directory: URL, backend: StoreBackendKind, environment: [String: String],
        overrides: ServiceConfiguration.Overrides, sharedDatabase: String?
    ) throws -> TestService {
        let databasePath = directory.appendingPathComponent("cloner.sqlite").path
        let location: String
        switch backend {
        case .sqlite: location = databasePath
        case .postgreSQL: location = try sharedDatabase ?? PostgreSQLTestCluster.shared.createDatabase().uri
        }
        var overrides = overrides
        overrides.host = overrides.host ?? "127.0.0.1"
        overrides.port = 0
        overrides.databasePath = overrides.databasePath ?? location
        overrides.modelPath = overrides.modelPath ?? Repository.sampleModelPath
        var configuration = try ServiceConfiguration.load(
            environment: environment, overrides: overrides,
            defaultSettingsFile: directory.appendingPathComponent("config/cloner.json").path)
        if environment["CLONER_DRAIN_GRACE"] == nil { configuration.drainGrace = .zero }

        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { throw ClientError("pipe() for the service's log failed: errno \(errno)") }
        let log = ServiceOutput()
        log.startReading(descriptors[0])
        close(descriptors[0])
        do {
            let (application, port) = try ClonerApplication.launch(configuration: configuration, logOutput: descriptors[1])
            // The lines up to `listening` are in `log` before the test goes on, as they are on a
            // process's standard output once it is seen to listen.
            _ = log.waitForJSONLine(timeout: .seconds(10)) { $0["message"] as? String == "listening" }
            return TestService(
                application: application, port: port, directory: directory, backend: backend,
                databaseLocation: overrides.databasePath ?? location, databasePath: databasePath,
                log: log, logDescriptor: descriptors[1])
        } catch {
            close(descriptors[1])
            throw error
        }
    }

    /// Drains and stops the service the way SIGTERM does (in-flight requests and clone jobs
    /// finish within `drainTimeout`), off the cooperative pool. Safe to call more than once.
    package func stop(drainTimeout: Duration = .seconds(10)) async {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let application = application, descriptor = logDescriptor
        _ = try? await Blocking.run {
            application.shutdown(drainTimeout: drainTimeout)
            close(descriptor)
        }
    }

    /// Runs `body` against a fresh service in a fresh temporary folder; the service is stopped
    /// and the folder removed afterwards, whatever happens.
    package static func withService<T>(
        backend: StoreBackendKind = .sqlite, environment: [String: String] = [:],
        overrides: ServiceConfiguration.Overrides = .init(),
        _ body: (TestService) async throws -> T
    ) async throws -> T {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let service = try await TestService.start(directory: directory.url, backend: backend, environment: environment, overrides: overrides)
        let result: T
        do {
            result = try await body(service)
        } catch {
            await service.stop()
            throw error
        }
        await service.stop()
        return result
    }

    /// `withService` on a model of the test's own, written to a file in the service's folder.
    package static func withService<T>(
        backend: StoreBackendKind = .sqlite, modelText: String, environment: [String: String] = [:],
        _ body: (TestService) async throws -> T
    ) async throws -> T {
        let models = try TemporaryDirectory()
        defer { models.remove() }
        let path = try models.write(modelText, to: "model.json")
        return try await withService(backend: backend, environment: environment, overrides: .init(modelPath: path), body)
    }
}
