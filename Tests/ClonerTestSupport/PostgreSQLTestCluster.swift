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

    /// Whether the cluster loads `pg_stat_statements` (PostgreSQL's contrib, in Debian's server
    /// package), for tests that count how often the server plans a statement. Read it from the
    /// cluster's `postgres` database, where the extension may be created without touching a
    /// store's own database.
    package static let hasStatementStatistics: Bool =
        binaryDirectory.map {
            FileManager.default.fileExists(atPath: $0.deletingLastPathComponent().appendingPathComponent("lib/pg_stat_statements.so").path)
        } ?? false

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
            throw PostgreSQLTestClusterError(
                message: Self.isRequired
                    ? "CI=true requires PostgreSQL, but initdb/pg_ctl were not found (install postgresql)"
                    : Self.skipReason)
        }
        let directory = try Self.makeDirectory()
        let data = directory.appendingPathComponent("data")
        let initdb = binaries.appendingPathComponent("initdb")
        let pgCtl = binaries.appendingPathComponent("pg_ctl")
        var serverStarted = false
        do {
            try Self.run(
                initdb,
                [
                    "-D", data.path, "-U", "postgres", "-A", "trust", "-E", "UTF8",
                    "--locale=C", "--no-sync",
                ])
            // Durability off: a test cluster is thrown away, and fsync costs seconds per test run.
            let options =
                "-k \(directory.path) -c listen_addresses='' -p \(Self.port) -c fsync=off"
                + " -c synchronous_commit=off -c full_page_writes=off -c max_connections=300 -c shared_buffers=32MB"
                + (Self.hasStatementStatistics
                    ? " -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track_planning=on" : "")
            try Self.run(
                pgCtl,
                [
                    "-D", data.path, "-l", directory.appendingPathComponent("server.log").path,
                    "-o", options, "-w", "-t", "60", "start",
                ])
            serverStarted = true
        } catch {
            // Leave nothing behind: a half-started cluster is stopped, its directory removed.
            if serverStarted || FileManager.default.fileExists(atPath: data.appendingPathComponent("postmaster.pid").path) {
                _ = try? Self.run(pgCtl, ["-D", data.path, "-m", "immediate", "-w", "stop"])
            }
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
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
    /// exit the cluster is already gone and the stop is a no-op. It runs in its own session, so
    /// the Ctrl-C that kills the test run does not kill it too.
    private static func startWatchdog(pgCtl: URL, data: URL, directory: URL) {
        let script = """
            pid=$1; data=$2; dir=$3; shift 3
            while kill -0 "$pid" 2>/dev/null; do sleep 1; done
            if [ -f "$data/postmaster.pid" ]; then "$@" >/dev/null 2>&1; fi
            rm -rf "$dir" 2>/dev/null
            """
        let stop = command(pgCtl, ["-D", data.path, "-m", "immediate", "stop"])
        _ = try? spawn(
            "/bin/sh",
            [
                "-c", script, "watchdog", String(getpid()), data.path, directory.path,
                stop.executable.path,
            ] + stop.arguments,
            output: "/dev/null", newSession: true)
    }

    // MARK: - processes

    /// The command line running `executable` as the postgres user when this process is root.
    private static func command(_ executable: URL, _ arguments: [String]) -> (executable: URL, arguments: [String]) {
        guard geteuid() == 0 else { return (executable, arguments) }
        let runuser =
            ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"]
            .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/sbin/runuser"
        return (URL(fileURLWithPath: runuser), ["-u", "postgres", "--", executable.path] + arguments)
    }

    /// Runs a command to completion, its output going to a file read back for the error message.
    /// posix_spawn + waitpid rather than Foundation's `Process`, whose termination monitoring
    /// missed runuser's exit here and left `waitUntilExit` blocked for good.
    @discardableResult
    private static func run(_ executable: URL, _ arguments: [String]) throws -> String {
        let (launched, launchArguments) = command(executable, arguments)
        let outputPath = "/tmp/cloner-pg-output-\(getpid())-\(UUID().uuidString.prefix(8)).log"
        defer { unlink(outputPath) }
        let pid = try spawn(launched.path, launchArguments, output: outputPath, newSession: false)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else {
                throw PostgreSQLTestClusterError(message: "waitpid for \(executable.lastPathComponent): errno \(errno)")
            }
        }
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // WIFEXITED && WEXITSTATUS == 0, spelled out: the C macros are not imported.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw PostgreSQLTestClusterError(
                message: "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) failed (wait status "
                    + "\(status)): \(text)")
        }
        return text
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// `posix_spawn_file_actions_addclosefrom_np`, where the C library has it.
    private static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: AddCloseFrom.self) }

    /// Starts `path` with stdin from /dev/null, stdout and stderr to `output`, and no other
    /// descriptor.
    private static func spawn(_ path: String, _ arguments: [String], output: String, newSession: Bool) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of the test process: a pipe another test opened at this moment (to a
        // helper's stdin or stdout, say) would otherwise stay open in the cluster's processes for
        // the whole run, and its reader would wait for an end of file that never comes.
        // (glibc ≥ 2.34; Swift does not import the `_np` declaration, so it is looked up.)
        if let closeFrom = PostgreSQLTestCluster.addCloseFrom { _ = closeFrom(&actions, 3) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // POSIX_SPAWN_SETSID (glibc ≥ 2.26, <spawn.h>) is hidden behind _GNU_SOURCE, so not imported.
        let posixSpawnSetSID: Int16 = 0x80
        if newSession { posix_spawnattr_setflags(&attributes, posixSpawnSetSID) }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard code == 0 else {
            throw PostgreSQLTestClusterError(message: "cannot start \(path): error \(code)")
        }
        return pid
    }

    /// initdb and pg_ctl from the newest /usr/lib/postgresql/<major>/bin (Debian), else from PATH.
    /// `CLONER_TEST_POSTGRESQL_BINDIR`, when set, is the only place looked (set it to a missing
    /// directory to see the skip, or the CI failure, on a machine that has PostgreSQL).
    private static func findBinaryDirectory() -> URL? {
        let fileManager = FileManager.default
        func hasBinaries(_ directory: String) -> Bool {
            fileManager.isExecutableFile(atPath: directory + "/initdb")
                && fileManager.isExecutableFile(atPath: directory + "/pg_ctl")
        }
        if let override = ProcessInfo.processInfo.environment["CLONER_TEST_POSTGRESQL_BINDIR"] {
            return hasBinaries(override) ? URL(fileURLWithPath: override) : nil
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
