import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The real `cloner` executable, started as a child process on an ephemeral port with its own
/// database and the sample model, its environment controlled by the test. The port comes from
/// the service's "listening" JSON log line. `stop()` kills it; every test calls it in a `defer`.
/// Every stored property is an immutable reference to a thread-safe object, hence `Sendable`.
final class ServiceProcess: RunningService {
    let directory: URL
    /// The SQLite file (on `.sqlite`; for `.postgreSQL` the file that is *not* used).
    let databasePath: String
    let backend: StoreBackendKind
    /// What `--database` was given: the SQLite path, or the test database's libpq URI.
    let databaseLocation: String
    let process: ChildProcess
    let stdout = ServiceOutput()
    let stderr = ServiceOutput()
    private let stdoutPipe = Pipe.forChild()
    private let stderrPipe = Pipe.forChild()
    let port: Int

    /// The sample model of the repository.
    static let sampleModelPath = Repository.sampleModelPath

    /// The `cloner` binary built beside the test bundle (`swift build --build-tests` and
    /// `swift test` build every product), else in the package's debug build folder.
    static let executablePath: String = {
        var folders: [URL] = []
        let argument0 = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        folders.append(argument0.deletingLastPathComponent())
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            folders.append(executable.deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        folders.append(repositoryRoot.appendingPathComponent(".build/debug"))
        for folder in folders {
            let candidate = folder.appendingPathComponent("cloner").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        preconditionFailure("no cloner executable beside the tests (looked in \(folders.map(\.path))); run swift build --build-tests")
    }()

    /// Runs `cloner` with `arguments` in `directory` (its working directory) and waits for the
    /// outcome: for `serve`, use `start` instead. A `launcher` (a command and its arguments, such
    /// as `setpriv` to run as another user) runs `cloner` through it; `executable` replaces the
    /// binary's path (a copy another user can reach).
    static func run(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:],
        timeout: Duration = .seconds(60), launcher: [String] = [],
        executable: String = executablePath
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        let outcome = try await Blocking.run {
            try runNow(arguments, in: directory, environment: environment, timeout: timeout, launcher: launcher, executable: executable)
        }
        return (outcome.status, outcome.stdout, outcome.stderr)
    }

    private struct Outcome: Sendable {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    private static func runNow(
        _ arguments: [String], in directory: URL, environment: [String: String], timeout: Duration,
        launcher: [String], executable: String
    ) throws -> Outcome {
        let command = launcher + [executable] + arguments
        let out = Pipe.forChild(), err = Pipe.forChild()
        let process = try ChildProcess(
            command[0], Array(command.dropFirst()), environment: cleanEnvironment(adding: environment), directory: directory.path,
            standardOutput: out.fileHandleForWriting.fileDescriptor, standardError: err.fileHandleForWriting.fileDescriptor)
        try out.fileHandleForWriting.close()
        try err.fileHandleForWriting.close()
        let stdout = ServiceOutput(), stderr = ServiceOutput()
        stdout.startReading(out.fileHandleForReading.fileDescriptor)
        stderr.startReading(err.fileHandleForReading.fileDescriptor)
        guard process.waitForExit(timeout: timeout) else {
            process.killAndReap()
            throw ClientError("cloner \(arguments.joined(separator: " ")) did not exit within \(timeout)")
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while !(stdout.isClosed && stderr.isClosed) && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        return Outcome(status: process.terminationStatus, stdout: stdout.text, stderr: stderr.text)
    }

    /// The test runner's environment without any CLONER_* variable, plus `adding`.
    static func cleanEnvironment(adding: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("CLONER_") }
        environment.merge(adding) { $1 }
        return environment
    }

    /// Starts the service (see `init`) from a thread of its own and awaits it listening.
    static func start(
        directory: URL, backend: StoreBackendKind = .sqlite, defaults: Bool = false,
        environment: [String: String] = [:], arguments: [String] = [],
        databasePassword: String? = nil, sharedDatabase: String? = nil
    ) async throws -> ServiceProcess {
        try await Blocking.run {
            try ServiceProcess(
                directory: directory, backend: backend, defaults: defaults, environment: environment, arguments: arguments,
                databasePassword: databasePassword, sharedDatabase: sharedDatabase)
        }
    }

    /// Starts `cloner serve` in `directory` with the database `directory/cloner.sqlite` and the
    /// sample model (unless `arguments` say otherwise) and waits until it listens. With
    /// `defaults`, only the port is given: database, model and settings come from the working
    /// directory and the environment, as in a deployment. On `.postgreSQL` the database is a fresh
    /// one in the test cluster, given to `--database` as a libpq URI (with `databasePassword` in
    /// its user info when given: the test cluster trusts local connections and ignores it) —
    /// or `sharedDatabase`, a URI another replica of the test serves too.
    init(
        directory: URL, backend: StoreBackendKind = .sqlite, defaults: Bool = false, environment: [String: String] = [:],
        arguments: [String] = [], databasePassword: String? = nil, sharedDatabase: String? = nil, startTimeout: Duration = .seconds(60)
    ) throws {
        precondition(!(defaults && backend == .postgreSQL), "defaults place the database in data/cloner.sqlite")
        self.directory = directory
        self.backend = backend
        self.databasePath = directory.appendingPathComponent(defaults ? "data/cloner.sqlite" : "cloner.sqlite").path
        switch backend {
        case .sqlite: databaseLocation = databasePath
        case .postgreSQL:
            databaseLocation = try sharedDatabase ?? PostgreSQLTestCluster.shared.createDatabase().uri(password: databasePassword)
        }
        let placement = defaults ? [] : ["--host", "127.0.0.1", "--database", databaseLocation, "--model", ServiceProcess.sampleModelPath]
        process = try ChildProcess(
            ServiceProcess.executablePath, ["serve", "--port", "0"] + placement + arguments,
            environment: ServiceProcess.cleanEnvironment(adding: environment), directory: directory.path,
            standardOutput: stdoutPipe.fileHandleForWriting.fileDescriptor, standardError: stderrPipe.fileHandleForWriting.fileDescriptor)
        try stdoutPipe.fileHandleForWriting.close()
        try stderrPipe.fileHandleForWriting.close()
        stdout.startReading(stdoutPipe.fileHandleForReading.fileDescriptor)
        stderr.startReading(stderrPipe.fileHandleForReading.fileDescriptor)
        let listening = stdout.waitForJSONLine(timeout: startTimeout) { $0["message"] as? String == "listening" }
        guard let listening, let port = ServiceProcess.integer(listening["port"]), port > 0 else {
            process.killAndReap()
            throw ClientError("cloner did not report listening; stdout:\n\(stdout.text)\nstderr:\n\(stderr.text)")
        }
        self.port = port
    }

    deinit { stop() }

    private static func integer(_ value: Any?) -> Int? {
        if let number = value as? Int { return number }
        if let text = value as? String { return Int(text) }
        return nil
    }

    var isRunning: Bool { process.isRunning }

    /// Sends `signal` to the service.
    func signal(_ number: Int32) {
        process.signal(number)
    }

    /// Waits (bounded) for the process to exit; its exit status, or nil if it still runs.
    func waitForExit(timeout: Duration) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// `stop` for async callers: kills the service and waits with `Task.sleep`, bounded, leaving
    /// the cooperative pool's thread free meanwhile.
    func stopAndWait() async {
        guard process.isRunning else { return }
        process.signal(SIGKILL)
        _ = await waitForExit(timeout: .seconds(10))
    }

    /// Kills the service if it still runs and waits for it; safe to call more than once.
    ///
    func stop() {
        process.killAndReap()
    }
}
