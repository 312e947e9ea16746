import CLibPQ
import ClonerConcurrency
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A pg_auto_failover formation for a test: a monitor and two PostgreSQL nodes on loopback, in a
/// temporary directory of their own, with failure detection shortened so that a crashed primary
/// is replaced within seconds. Real processes (`pg_autoctl`), killed as a crash kills them.
///
/// `init` returns once one node is primary and the other its synchronous secondary; `uri` is the
/// multi-host URI a client follows to whichever node is primary. `killPrimary()` kills the
/// primary's keeper and postmaster with SIGKILL, `revive(nodeAt:)` restarts a killed node (it
/// rejoins as a secondary), `switchover()` is the planned change of primary.
///
/// Nothing outlives the test process: `stop()` (also on deinit and at exit) kills every process
/// group the formation started and every postmaster of its directory, each by its own pid after
/// checking that its command line names the directory, and removes the directory; a watchdog
/// shell does the same if the test process dies without running its exit handlers (set
/// `CLONER_TEST_FORMATION_LOGS` to a folder to keep the keepers' logs there). pg_autoctl's
/// configuration and state files live in the directory too (its XDG folders point there). Run as
/// root, every pg_autoctl runs as `postgres` (through `setpriv`, which starts it in place, so the
/// pid a test holds is the keeper's own).
///
/// Without pg_autoctl installed, suites skip with `skipReason` — unless `CI=true`, where
/// `isEnabled` stays true and `init` throws, as `PostgreSQLTestCluster` does.
///
/// `@unchecked Sendable`: the processes are read and changed under `lock`.
package final class AutoFailoverFormation: @unchecked Sendable {
    /// pg_autoctl's path, if pg_auto_failover is installed (and PostgreSQL's programs with it).
    package static let executable: String? = {
        guard PostgreSQLTestCluster.binaryDirectory != nil else { return nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return (["/usr/bin"] + path.split(separator: ":").map(String.init))
            .map { $0 + "/pg_autoctl" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Whether failover tests should run: installed, or required (CI), in which case they fail.
    package static var isEnabled: Bool { executable != nil || PostgreSQLTestCluster.isRequired }

    package static let skipReason =
        "pg_auto_failover is not installed (no pg_autoctl in /usr/bin or on PATH): failover tests skipped. "
        + "Install postgresql-15-auto-failover and pg-auto-failover-cli (Debian) to run them; under CI=true they fail instead."

    /// The node states in which a node takes writes.
    static let primaryStates: Set<String> = ["single", "wait_primary", "primary"]

    package let directory: URL
    package let monitorPort: Int
    package let nodePorts: [Int]
    /// The database every node serves, made by the first node.
    package let databaseName = "cloner"

    /// The multi-host URI of the formation's database: libpq tries each node in turn and keeps the
    /// one that takes writes.
    package var uri: String {
        let hosts = nodePorts.map { "127.0.0.1:\($0)" }.joined(separator: ",")
        return "postgres://postgres@\(hosts)/\(databaseName)?target_session_attrs=read-write&sslmode=disable"
    }

    /// One node as the monitor sees it: the state it reported and the one it was assigned.
    package struct NodeState: Sendable, CustomStringConvertible {
        package let port: Int
        package let reported: String
        package let assigned: String

        /// Takes writes, and the monitor agrees.
        package var isPrimary: Bool { reported == assigned && AutoFailoverFormation.primaryStates.contains(reported) }
        package var isSecondary: Bool { reported == "secondary" && assigned == "secondary" }
        /// A primary whose commits wait for its standby again. Until then (`wait_primary`, just
        /// after the standby rejoined) its commits are its own, and a switchover asked for then
        /// promotes the standby while the old primary still takes writes: pg_auto_failover 2.0's
        /// keeper cannot reach `demote_timeout` from `wait_primary`, so it keeps serving until
        /// the monitor gives up on it, and its writes of those seconds are rewound away.
        package var isSynchronousPrimary: Bool { reported == "primary" && assigned == "primary" }
        package var description: String { "\(port): \(reported) → \(assigned)" }
    }

    private let lock = NSLock()
    /// The running keepers (each the leader of its process group), by node port.
    private var keepers: [Int: ChildProcess] = [:]
    private var monitor: ChildProcess?
    private var watchdog: ChildProcess?
    private static let live = LockedValue<Set<String>>([])

    /// Creates the monitor and both nodes and waits (within `timeout`) until one is primary and
    /// the other its secondary.
    package init(timeout: Duration = .seconds(600)) throws {
        guard Self.executable != nil else {
            throw AutoFailoverFormationError(
                PostgreSQLTestCluster.isRequired
                    ? "CI=true requires pg_auto_failover, but pg_autoctl was not found "
                        + "(install postgresql-15-auto-failover pg-auto-failover-cli)"
                    : Self.skipReason)
        }
        var ports: [Int] = []
        while ports.count < 3 {
            let port = try FreePort.take()
            if !ports.contains(port) { ports.append(port) }
        }
        monitorPort = ports[0]
        nodePorts = Array(ports[1...])
        directory = try Self.makeDirectory()
        Self.live.withLock { _ = $0.insert(directory.path) }
        do {
            try startWatchdog()
            try create(deadline: ContinuousClock.now + timeout)
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    // MARK: - what a test does to it

    /// The nodes as the monitor sees them now (empty while it does not answer).
    package func state() -> [NodeState] {
        let rows =
            (try? Self.query(
                port: monitorPort, database: "pg_auto_failover", "SELECT nodeport, reportedstate, goalstate FROM pgautofailover.node ORDER BY nodeid")) ?? []
        return rows.compactMap { row in
            guard row.count == 3, let port = Int(row[0]) else { return nil }
            return NodeState(port: port, reported: row[1], assigned: row[2])
        }
    }

    /// Kills the primary as a crash would: its keeper's whole process group (keeper, its
    /// services, the postmaster and its backends) and the postmaster itself, with SIGKILL.
    /// Returns the killed node's port.
    @discardableResult
    package func killPrimary() throws -> Int {
        let nodes = state()
        guard let primary = nodes.first(where: \.isPrimary) else {
            throw AutoFailoverFormationError("no primary to kill: \(nodes)")
        }
        kill(nodeAt: primary.port)
        return primary.port
    }

    /// Kills one node's keeper and postmaster with SIGKILL.
    package func kill(nodeAt port: Int) {
        let keeper = lock.withLock { keepers.removeValue(forKey: port) }
        let postmaster = Self.postmaster(of: nodeDirectory(port))
        if let keeper { Glibc.kill(-keeper.processIdentifier, SIGKILL) }
        if let postmaster { Glibc.kill(postmaster, SIGKILL) }
        keeper?.killAndReap()
    }

    /// Restarts a killed node's keeper, which rejoins the formation as a secondary (wait for it
    /// with `waitUntilPrimaryAndSecondary`).
    package func revive(nodeAt port: Int) throws {
        let keeper = try startKeeper(["run", "--pgdata", nodeDirectory(port).path], log: "node-\(port).log")
        lock.withLock { keepers[port] = keeper }
    }

    /// A planned switchover: the primary is demoted and the secondary promoted. Returns once
    /// pg_autoctl reports it done.
    package func switchover(timeout: Duration = .seconds(150)) throws {
        let seconds = Int(timeout.components.seconds)
        do {
            try runCommand(
                ["perform", "switchover", "--pgdata", monitorDirectory.path, "--wait", String(max(seconds - 10, 30))], timeout: timeout)
        } catch let error as AutoFailoverFormationError {
            let stalled = backendsWaitingForReplication()
            guard !stalled.isEmpty else { throw error }
            throw AutoFailoverFormationError(
                "the switchover did not complete: the old primary does not shut down, its backends waiting for a synchronous "
                    + "standby that is gone: \(stalled.prefix(8)); \(error.message.prefix(1500))")
        }
    }

    /// The process titles of the formation's PostgreSQL backends that wait for a synchronous
    /// standby to confirm a commit (`… waiting for LSN`): what holds a demoting primary's fast
    /// shutdown when its standby has stopped replicating.
    package func backendsWaitingForReplication() -> [String] {
        let postmasters = Set(nodePorts.compactMap { Self.postmaster(of: nodeDirectory($0)) })
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return processes.compactMap { name -> String? in
            guard let pid = pid_t(name), let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let end = stat.lastIndex(of: ")")
            else { return nil }
            // After the command's closing parenthesis: state, then the parent's pid.
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            guard fields.count > 1, let parent = pid_t(fields[1]), postmasters.contains(parent) else { return nil }
            let title = Self.commandLine(of: pid)
            return title.contains(" waiting for ") ? title.trimmingCharacters(in: .whitespaces) : nil
        }
    }

    /// Whether a keeper was told to demote its node from `wait_primary` and could not: pg_auto_failover
    /// 2.0 has no way from `wait_primary` to `demote_timeout`, so a switchover that meets a
    /// primary dropping to `wait_primary` (its standby briefly reported unhealthy, as a starved
    /// machine makes it) promotes the standby while the old primary still takes writes, alone,
    /// until the monitor gives up on it — and its writes of those seconds are rewound away.
    /// Only what the keepers logged after `mark` (`keeperLogMark`) counts: the same line from an
    /// earlier disruption says nothing of this one.
    package func keeperCouldNotDemoteFromWaitPrimary(since mark: [Int: Int]) -> Bool {
        nodePorts.contains { port in
            let log = (try? Data(contentsOf: keeperLog(port))) ?? Data()
            let since = String(decoding: log.dropFirst(mark[port] ?? 0), as: UTF8.self)
            return since.contains(#"does not know how to reach state "demote_timeout" from "wait_primary""#)
        }
    }

    /// How far each node's keeper log reaches now, by port.
    package func keeperLogMark() -> [Int: Int] {
        Dictionary(uniqueKeysWithValues: nodePorts.map { port in (port, (try? Data(contentsOf: keeperLog(port)))?.count ?? 0) })
    }

    private func keeperLog(_ port: Int) -> URL { directory.appendingPathComponent("node-\(port).log") }

    /// Waits until a node other than the one on `port` takes writes; its port.
    @discardableResult
    package func waitForPrimary(otherThan port: Int, timeout: Duration = .seconds(180)) throws -> Int {
        var promoted: Int?
        try waitFor("a node other than \(port) to be primary", timeout: timeout) {
            promoted = state().first { $0.isPrimary && $0.port != port }?.port
            return promoted != nil
        }
        return promoted!
    }

    /// Waits until one node is primary with synchronous replication on and the other its
    /// secondary: the state a switchover must start from (`NodeState.isSynchronousPrimary`).
    package func waitUntilPrimaryAndSecondary(timeout: Duration = .seconds(300)) throws {
        try waitFor("a primary and a secondary", timeout: timeout) {
            let nodes = state()
            return nodes.count == 2 && nodes.contains(where: \.isSynchronousPrimary) && nodes.contains(where: \.isSecondary)
        }
    }

    /// Stops every process of the formation and removes its directory. Safe to call more than once.
    package func stop() {
        let children = lock.withLock {
            defer {
                keepers = [:]
                monitor = nil
            }
            return Array(keepers.values) + [monitor].compactMap { $0 }
        }
        guard Self.live.withLock({ $0.remove(directory.path) }) != nil else { return }
        keepLogs()
        Self.clean(directory)
        for child in children { child.killAndReap() }
        lock.withLock { watchdog }?.killAndReap()
    }

    /// Copies the keepers' and the servers' logs to `CLONER_TEST_FORMATION_LOGS`, when set, before
    /// the directory goes: what the monitor and the nodes did, for a test that failed.
    private func keepLogs() {
        guard let target = ProcessInfo.processInfo.environment["CLONER_TEST_FORMATION_LOGS"] else { return }
        let kept = URL(fileURLWithPath: target).appendingPathComponent(directory.lastPathComponent)
        try? FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
        let fileManager = FileManager.default
        for name in (try? fileManager.contentsOfDirectory(atPath: directory.path)) ?? [] {
            if name.hasSuffix(".log") {
                try? fileManager.copyItem(at: directory.appendingPathComponent(name), to: kept.appendingPathComponent(name))
            }
            // PostgreSQL's own log of that node (its logging collector writes to `log/`).
            let serverLogs = directory.appendingPathComponent(name).appendingPathComponent("log")
            if fileManager.fileExists(atPath: serverLogs.path) {
                try? fileManager.copyItem(at: serverLogs, to: kept.appendingPathComponent("\(name)-postgresql"))
            }
        }
    }

    // MARK: - creation

    private var monitorDirectory: URL { directory.appendingPathComponent("monitor") }

    private func nodeDirectory(_ port: Int) -> URL { directory.appendingPathComponent("node-\(port)") }

    private var monitorURI: String {
        "postgres://autoctl_node@127.0.0.1:\(monitorPort)/pg_auto_failover?sslmode=disable"
    }

    /// Detection shortened from pg_auto_failover's defaults (which take most of a minute to
    /// replace a crashed primary): the monitor checks each node every second and gives up on one
    /// after a single failed retry.
    private static let monitorSettings = [
        "health_check_period": "1000", "health_check_timeout": "1000", "health_check_max_retries": "1",
        "health_check_retry_delay": "500", "node_considered_unhealthy_timeout": "3000", "primary_demote_timeout": "5000",
    ]

    private func create(deadline: ContinuousClock.Instant) throws {
        monitor = try startKeeper(
            [
                "create", "monitor", "--pgdata", monitorDirectory.path, "--pgport", String(monitorPort),
                "--hostname", "127.0.0.1", "--auth", "trust", "--no-ssl", "--run",
            ], log: "monitor.log")
        try waitFor("the monitor to answer", timeout: deadline - ContinuousClock.now) {
            try checkRunning()
            return (try? Self.query(port: monitorPort, database: "pg_auto_failover", "SELECT count(*) FROM pgautofailover.formation")) != nil
        }
        for (name, value) in Self.monitorSettings.sorted(by: { $0.key < $1.key }) {
            _ = try Self.query(port: monitorPort, database: "pg_auto_failover", "ALTER SYSTEM SET pgautofailover.\(name) = \(value)")
        }
        _ = try Self.query(port: monitorPort, database: "pg_auto_failover", "SELECT pg_reload_conf()")

        let (first, second) = (nodePorts[0], nodePorts[1])
        try createNode(first)
        try waitFor("the first node to be primary", timeout: deadline - ContinuousClock.now) {
            try checkRunning()
            return state().first { $0.port == first }?.isPrimary ?? false
        }
        try createNode(second)
        try waitFor("a primary and a secondary", timeout: deadline - ContinuousClock.now) {
            try checkRunning()
            let nodes = state()
            if nodes.contains(where: \.isPrimary) && nodes.contains(where: \.isSecondary) { return true }
            // The secondary's base backup waits for a checkpoint on the primary, which PostgreSQL
            // spreads over minutes; one asked for meanwhile finishes it at full speed.
            if nodes.first(where: { $0.port == second })?.reported == "wait_standby" {
                _ = try? Self.query(port: first, database: "postgres", "CHECKPOINT")
            }
            return false
        }
        for port in nodePorts {
            // A node that loses the monitor and its standby demotes itself after this many seconds.
            try runCommand(["config", "set", "--pgdata", nodeDirectory(port).path, "timeout.network_partition_timeout", "4"])
        }
    }

    private func createNode(_ port: Int) throws {
        let keeper = try startKeeper(
            [
                "create", "postgres", "--pgdata", nodeDirectory(port).path, "--pgport", String(port), "--listen", "127.0.0.1",
                "--hostname", "127.0.0.1", "--auth", "trust", "--no-ssl", "--dbname", databaseName, "--monitor", monitorURI, "--run",
            ], log: "node-\(port).log")
        lock.withLock { keepers[port] = keeper }
    }

    /// Throws, with the end of its log, when a keeper started during creation has exited.
    private func checkRunning() throws {
        let running: [(name: String, process: ChildProcess)] = lock.withLock {
            keepers.map { ("node-\($0.key)", $0.value) } + (monitor.map { [("monitor", $0)] } ?? [])
        }
        guard let name = running.first(where: { !$0.process.isRunning })?.name else { return }
        let log = (try? String(contentsOf: directory.appendingPathComponent("\(name).log"), encoding: .utf8)) ?? ""
        throw AutoFailoverFormationError("pg_autoctl of the \(name) exited:\n\(log.suffix(3000))")
    }

    private func waitFor(_ what: String, timeout: Duration, _ condition: () throws -> Bool) throws {
        do {
            try eventuallyBlocking(what, timeout: max(timeout, .seconds(1)), poll: .milliseconds(250), condition)
        } catch let error as TimedOut {
            throw AutoFailoverFormationError("\(error); the formation: \(state()) (logs in \(directory.path))")
        }
    }

    // MARK: - processes

    /// The command line running pg_autoctl with `arguments`: in an environment of its own (its
    /// configuration and state in the formation's directory, PostgreSQL's programs first on the
    /// PATH), as `postgres` when this process is root.
    private func command(_ arguments: [String]) -> (executable: String, arguments: [String]) {
        let binaries = PostgreSQLTestCluster.binaryDirectory?.path ?? "/usr/lib/postgresql/15/bin"
        let home = directory.path
        let invocation =
            [
                "/usr/bin/env", "-i", "PATH=\(binaries):/usr/bin:/bin", "HOME=\(home)", "XDG_CONFIG_HOME=\(home)/xdg/config",
                "XDG_DATA_HOME=\(home)/xdg/data", "XDG_RUNTIME_DIR=\(home)/xdg/run", Self.executable ?? "pg_autoctl",
            ] + arguments
        guard geteuid() == 0 else { return (invocation[0], Array(invocation.dropFirst())) }
        return ("/usr/bin/setpriv", ["--reuid", "postgres", "--regid", "postgres", "--init-groups"] + invocation)
    }

    /// Starts a long-running pg_autoctl as the leader of a process group of its own, its output
    /// appended to `log` in the formation's directory; the group is listed in `processes` for the
    /// watchdog.
    private func startKeeper(_ arguments: [String], log: String) throws -> ChildProcess {
        let output = open(directory.appendingPathComponent(log).path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw AutoFailoverFormationError("cannot open \(log): errno \(errno)") }
        defer { close(output) }
        let (executable, launchArguments) = command(arguments)
        let child = try ChildProcess(executable, launchArguments, standardOutput: output, standardError: output, ownProcessGroup: true)
        let list = directory.appendingPathComponent("processes").path
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: list))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\(child.processIdentifier)\n".utf8))
        return child
    }

    /// Runs a short pg_autoctl command to its end; throws with its output when it fails.
    private func runCommand(_ arguments: [String], timeout: Duration = .seconds(60)) throws {
        let (executable, launchArguments) = command(arguments)
        let outcome = try ShortCommand.run(executable, launchArguments, timeout: timeout)
        guard outcome.status == 0 else {
            throw AutoFailoverFormationError(
                "pg_autoctl \(arguments.joined(separator: " ")) failed (\(outcome.status)): "
                    + String(decoding: outcome.output + outcome.errors, as: UTF8.self).suffix(3000))
        }
    }

    /// A shell that waits for this process to end, then does what `clean` does — for a test
    /// process killed before its `atexit` handler could run. After a normal stop the directory is
    /// gone and it has nothing to do. Its own process group keeps a Ctrl-C of the run from it.
    private func startWatchdog() throws {
        _ = FileManager.default.createFile(atPath: directory.appendingPathComponent("processes").path, contents: nil)
        let script = """
            pid=$1; dir=$2
            while kill -0 "$pid" 2>/dev/null; do sleep 1; done
            [ -d "$dir" ] || exit 0
            for p in $(cat "$dir/processes" 2>/dev/null) $(head -qn1 "$dir"/*/postmaster.pid 2>/dev/null); do
                if tr '\\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | grep -qF "$dir"; then
                    kill -KILL -- "-$p" 2>/dev/null; kill -KILL "$p" 2>/dev/null
                fi
            done
            sleep 1; rm -rf "$dir"
            """
        watchdog = try ChildProcess("/bin/sh", ["-c", script, "watchdog", String(getpid()), directory.path], ownProcessGroup: true)
    }

    /// Kills every process group the formation's directory lists and every postmaster of it —
    /// each only while its command line names the directory, so a number the system has since
    /// given to another process is left alone — and removes the directory.
    private static func clean(_ directory: URL) {
        let listed = ((try? String(contentsOf: directory.appendingPathComponent("processes"), encoding: .utf8)) ?? "")
            .split(separator: "\n").compactMap { pid_t($0) }
        let subdirectories = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let postmasters = subdirectories.compactMap { postmaster(of: directory.appendingPathComponent($0)) }
        for pid in listed + postmasters where commandLine(of: pid).contains(directory.path) {
            Glibc.kill(-pid, SIGKILL)
            Glibc.kill(pid, SIGKILL)
        }
        // A dying process may still write a file as the removal runs: try again once.
        if (try? FileManager.default.removeItem(at: directory)) == nil {
            Thread.sleep(forTimeInterval: 0.5)
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// The postmaster's pid from a data directory's `postmaster.pid`, if it names a process that
    /// runs that data directory.
    private static func postmaster(of dataDirectory: URL) -> pid_t? {
        let file = dataDirectory.appendingPathComponent("postmaster.pid")
        guard let text = try? String(contentsOf: file, encoding: .utf8),
            let pid = text.split(separator: "\n").first.flatMap({ pid_t($0) }), pid > 0,
            commandLine(of: pid).contains(dataDirectory.path)
        else { return nil }
        return pid
    }

    private static func commandLine(of pid: pid_t) -> String {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return "" }
        return String(decoding: data.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }

    // MARK: - setup helpers

    /// At exit, every formation still running is stopped (its processes would otherwise run on).
    private static let stopAtExit: Void = {
        atexit {
            for path in AutoFailoverFormation.live.withLock({ $0 }) { AutoFailoverFormation.clean(URL(fileURLWithPath: path)) }
        }
    }()

    /// A short directory (the nodes' Unix sockets live in /tmp, but pg_autoctl's paths are
    /// logged and compared whole) that the postgres user owns.
    private static func makeDirectory() throws -> URL {
        _ = stopAtExit
        let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("cloner-ha-\(getpid())-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if geteuid() == 0 {
            guard let user = getpwnam("postgres") else {
                try? FileManager.default.removeItem(at: directory)
                throw AutoFailoverFormationError("running as root needs a 'postgres' user to run the formation as")
            }
            guard chown(directory.path, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
                try? FileManager.default.removeItem(at: directory)
                throw AutoFailoverFormationError("chown \(directory.path) to postgres: errno \(errno)")
            }
        }
        chmod(directory.path, 0o700)
        return directory
    }

    /// Runs one statement as `postgres` on the node or monitor at `port`; its rows as text.
    static func query(port: Int, database: String, _ statement: String) throws -> [[String]] {
        let conninfo = "host=127.0.0.1 port=\(port) dbname=\(database) user=postgres connect_timeout=3 sslmode=disable"
        guard let connection = PQconnectdb(conninfo) else { throw AutoFailoverFormationError("PQconnectdb: out of memory") }
        defer { PQfinish(connection) }
        guard PQstatus(connection) == CONNECTION_OK else {
            throw AutoFailoverFormationError("connect to 127.0.0.1:\(port): \(String(cString: PQerrorMessage(connection)))")
        }
        guard let result = PQexec(connection, statement) else { throw AutoFailoverFormationError("\(statement): no result") }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK else {
            throw AutoFailoverFormationError("\(statement) on 127.0.0.1:\(port): \(String(cString: PQresultErrorMessage(result)))")
        }
        return (0..<PQntuples(result)).map { row in
            (0..<PQnfields(result)).map { column in String(cString: PQgetvalue(result, row, column)) }
        }
    }
}
