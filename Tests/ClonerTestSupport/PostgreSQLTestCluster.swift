import CLibPQ
import Foundation

/// A throwaway PostgreSQL cluster for tests: `initdb` into a temporary directory, a postmaster
/// listening only on a Unix socket inside it, and one fresh database per test.
///
/// One cluster per test process, shared by every suite: `shared` starts it on the first
/// `createDatabase()` and stops it (`pg_ctl stop -m immediate`, by the postmaster's own pid file)
/// when the process exits; a watchdog shell stops it too if the test process dies without running
/// its exit handlers. Run as root, the cluster runs as the `postgres` user through `runuser`
/// (PostgreSQL refuses to run as root).
///
/// Without PostgreSQL installed, suites skip with `skipReason` — unless `CI=true`, where
/// `isEnabled` stays true and `createDatabase()` throws, so a CI machine missing PostgreSQL fails
/// instead of silently testing nothing.
package final class PostgreSQLTestCluster: @unchecked Sendable {
    package static let shared = PostgreSQLTestCluster()

    /// The directory holding initdb and pg_ctl, if PostgreSQL is installed.
    package static let binaryDirectory: URL? = findBinaryDirectory()

    package static var isRequired: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Whether PostgreSQL tests should run: installed, or required (CI), in which case they fail.
    package static var isEnabled: Bool { binaryDirectory != nil || isRequired }

    package static let skipReason =
        "PostgreSQL is not installed (no initdb/pg_ctl in /usr/lib/postgresql/*/bin or on PATH): "
        + "PostgreSQL tests skipped. Install postgresql (Debian) to run them; under CI=true they fail instead."

    private let lock = NSLock()
    private var state: State?
    private var databaseCounter = 0

    private struct State {
        let directory: URL
        let dataDirectory: URL
        let pgCtl: URL
        let admin: OpaquePointer
    }

    /// The socket port; the socket file lives in the cluster's own directory, so it never meets
    /// another cluster's.
    package static let port = 5432

    /// Creates an empty database for one test and returns how to reach it, starting the cluster
    /// on first use.
    package func createDatabase() throws -> PostgreSQLTestDatabase {
        lock.lock()
        defer { lock.unlock() }
        let state = try startedState()
        databaseCounter += 1
        let name = "test_\(databaseCounter)"
        guard let result = PQexec(state.admin, "CREATE DATABASE \(name)") else {
            throw PostgreSQLTestClusterError(message: "CREATE DATABASE \(name): no result")
        }
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else {
            throw PostgreSQLTestClusterError(message: "CREATE DATABASE \(name): \(String(cString: PQresultErrorMessage(result)))")
        }
        return PostgreSQLTestDatabase(name: name, socketDirectory: state.directory.path, port: Self.port)
    }

    /// The socket directory of the running cluster, starting it if needed.
    package func socketDirectory() throws -> String {
        lock.lock()
        defer { lock.unlock() }
        return try startedState().directory.path
    }

    /// Stops the cluster and removes its directory. Safe to call more than once.
    package func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard let state else { return }
        self.state = nil
        PQfinish(state.admin)
        _ = try? Self.run(state.pgCtl, ["-D", state.dataDirectory.path, "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(at: state.directory)
    }

    // MARK: - start

    private func startedState() throws -> State {
        if let state { return state }
        guard let binaries = Self.binaryDirectory else {
            throw PostgreSQLTestClusterError(message: Self.isRequired
                ? "CI=true requires PostgreSQL, but initdb/pg_ctl were not found (install postgresql)"
                : Self.skipReason)
        }
        let directory = try Self.makeDirectory()
        let data = directory.appendingPathComponent("data")
        let initdb = binaries.appendingPathComponent("initdb")
        let pgCtl = binaries.appendingPathComponent("pg_ctl")
        try Self.run(initdb, ["-D", data.path, "-U", "postgres", "-A", "trust", "-E", "UTF8",
                              "--locale=C", "--no-sync"])
        // Durability off: a test cluster is thrown away, and fsync costs seconds per test run.
        let options = "-k \(directory.path) -c listen_addresses='' -p \(Self.port) -c fsync=off"
            + " -c synchronous_commit=off -c full_page_writes=off -c max_connections=300 -c shared_buffers=32MB"
        try Self.run(pgCtl, ["-D", data.path, "-l", directory.appendingPathComponent("server.log").path,
                             "-o", options, "-w", "-t", "60", "start"])
        Self.startWatchdog(pgCtl: pgCtl, data: data, directory: directory)
        let uri = "postgresql://postgres@/postgres?host=\(directory.path)&port=\(Self.port)"
        guard let admin = PQconnectdb(uri), PQstatus(admin) == CONNECTION_OK else {
            throw PostgreSQLTestClusterError(message: "cannot connect to the test cluster at \(uri)")
        }
        let started = State(directory: directory, dataDirectory: data, pgCtl: pgCtl, admin: admin)
        state = started
        atexit { PostgreSQLTestCluster.shared.stop() }
        return started
    }

    /// A short directory (a Unix socket path must fit in 107 bytes) that the postgres user owns.
    private static func makeDirectory() throws -> URL {
        var base = FileManager.default.temporaryDirectory.path
        // postgres must be able to reach it, and the socket path must stay short.
        if geteuid() == 0 || base.utf8.count > 60 { base = "/tmp" }
        let directory = URL(fileURLWithPath: base).appendingPathComponent("cloner-pg-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if geteuid() == 0 {
            guard let user = getpwnam("postgres") else {
                throw PostgreSQLTestClusterError(message: "running as root needs a 'postgres' user to run the cluster as")
            }
            guard chown(directory.path, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
                throw PostgreSQLTestClusterError(message: "chown \(directory.path) to postgres: errno \(errno)")
            }
        }
        chmod(directory.path, 0o700)
        return directory
    }

    /// A shell that waits for this process to end, then stops the cluster and removes its
    /// directory — for a test process killed before its `atexit` handler could run. After a normal
    /// exit the cluster is already gone and the stop is a no-op.
    private static func startWatchdog(pgCtl: URL, data: URL, directory: URL) {
        let script = """
            pid=$1; data=$2; dir=$3; shift 3
            while kill -0 "$pid" 2>/dev/null; do sleep 1; done
            if [ -f "$data/postmaster.pid" ]; then "$@" >/dev/null 2>&1; fi
            rm -rf "$dir" 2>/dev/null
            """
        let stop = command(pgCtl, ["-D", data.path, "-m", "immediate", "stop"])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, "watchdog", String(getpid()), data.path, directory.path]
            + [stop.executable.path] + stop.arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
    }

    // MARK: - processes

    /// The command line running `executable` as the postgres user when this process is root.
    private static func command(_ executable: URL, _ arguments: [String]) -> (executable: URL, arguments: [String]) {
        guard geteuid() == 0 else { return (executable, arguments) }
        let runuser = ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"]
            .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/sbin/runuser"
        return (URL(fileURLWithPath: runuser), ["-u", "postgres", "--", executable.path] + arguments)
    }

    @discardableResult
    private static func run(_ executable: URL, _ arguments: [String]) throws -> String {
        let (launched, launchArguments) = command(executable, arguments)
        let process = Process()
        process.executableURL = launched
        process.arguments = launchArguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PostgreSQLTestClusterError(
                message: "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) exited with "
                    + "\(process.terminationStatus): \(text)")
        }
        return text
    }

    /// initdb and pg_ctl from the newest /usr/lib/postgresql/<major>/bin (Debian), else from PATH.
    private static func findBinaryDirectory() -> URL? {
        let fileManager = FileManager.default
        func hasBinaries(_ directory: String) -> Bool {
            fileManager.isExecutableFile(atPath: directory + "/initdb")
                && fileManager.isExecutableFile(atPath: directory + "/pg_ctl")
        }
        let versions = ((try? fileManager.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .compactMap(Int.init).sorted(by: >)
        for version in versions where hasBinaries("/usr/lib/postgresql/\(version)/bin") {
            return URL(fileURLWithPath: "/usr/lib/postgresql/\(version)/bin")
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":").map(String.init) where hasBinaries(directory) {
            // Debian's /usr/bin entries may be wrappers; resolve to the real directory.
            let real = URL(fileURLWithPath: directory + "/initdb").resolvingSymlinksInPath().deletingLastPathComponent()
            return hasBinaries(real.path) ? real : URL(fileURLWithPath: directory)
        }
        return nil
    }
}
