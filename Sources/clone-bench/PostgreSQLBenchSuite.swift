import ClonerModel
import ClonerStore
import Foundation

/// The benchmark on PostgreSQL (docs/architecture.md#postgresql): per size a fresh database in the cluster
/// `scripts/bench-clone.sh` starts, filled by one child process, then the hand-written SQL copy
/// and the Cloner alternating in fresh child processes on the same database — the order of the
/// two swapped every round, so neither always runs on the warmer cache — and medians reported.
/// Ends with a clone of a gibibyte of attachments, whose peak RSS must stay small: blobs are
/// copied inside the server and never pass through the service.
struct PostgreSQLBenchSuite {
    let modelPath: String
    /// A libpq URI of the cluster's maintenance database; each size gets a database beside it.
    let adminURI: String
    var sizes = BenchSizes()

    /// The goal on PostgreSQL, as on SQLite: Cloner rows/s at least 0.85 × the hand-written
    /// SQL's (it was 0.7 once).
    static let targetRatio = BenchSuite.targetRatio

    struct SizeResult {
        var label: String
        var setup: BenchMeasurement
        var sql: [BenchMeasurement] = []
        var cloner: [BenchMeasurement] = []
    }

    func run() throws -> Bool {
        Console.line("clone-bench postgresql: cluster \(adminURI)")
        let (results, large) = try sizes.measureEach { try measure(label: $0, items: $1, blobBytes: $2, rounds: $3) }
        return report(results, large: large)
    }

    /// The URI of database `name` in the same cluster: the admin URI with its path replaced.
    private func uri(database name: String) -> String {
        let parts = adminURI.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let base = parts[0].lastIndex(of: "/").map { parts[0][..<$0] } ?? parts[0]
        return "\(base)/\(name)" + (parts.count > 1 ? "?\(parts[1])" : "")
    }

    private func measure(label: String, items: Int, blobBytes: Int, rounds: Int) throws -> SizeResult {
        let name = "bench_\(items)_\(blobBytes)"
        let admin = try PostgreSQLConnection(uri: adminURI)
        try admin.execute("DROP DATABASE IF EXISTS \(name)")
        try admin.execute("CREATE DATABASE \(name)")
        defer { try? admin.execute("DROP DATABASE IF EXISTS \(name)") }
        let database = uri(database: name)
        let setup = try BenchChild.run(["pg-setup", "--uri", database, "--items", "\(items)", "--blob-bytes", "\(blobBytes)"], modelPath: modelPath)
        // After the store's tables: the store refuses a first start in a database holding others.
        try PostgreSQLConnection(uri: database).execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        let size = try admin.query("SELECT pg_database_size($1)", [.text(name)])[0].int64(0)
        var result = SizeResult(label: label, setup: setup)
        Console.line(
            String(
                format: "[pg %@] setup %.2f s, RSS %@, database %@", label, setup.double("seconds"),
                BenchReport.mib(setup.int("hwm_kib")), BenchReport.mib(Int(size) / 1_024)))
        for round in 1...rounds {
            // Odd rounds SQL first, even rounds the Cloner first.
            for mode in round % 2 == 1 ? ["sql", "cloner"] : ["cloner", "sql"] {
                let measurement = try BenchChild.run(["pg-run", "--uri", database, "--mode", mode, "--root", setup["root"] ?? "1"], modelPath: modelPath)
                if mode == "sql" { result.sql.append(measurement) } else { result.cloner.append(measurement) }
                let rows = measurement.int("objects") + measurement.int("joins")
                Console.line(
                    String(
                        format: "[pg %@] round %d %-6@ %8.3f s (CPU %.3f s)  %9d rows  %10.0f rows/s  %3d statements  peak RSS %@",
                        label, round, mode, measurement.double("seconds"), measurement.double("cpu_seconds"), rows,
                        Double(rows) / measurement.double("seconds"), measurement.int("statements"), BenchReport.mib(measurement.int("hwm_kib"))))
            }
        }
        let rows = (result.sql + result.cloner).map { $0.int("objects") + $0.int("joins") }
        guard Set(rows).count == 1 else {
            throw BenchSuite.Failure(description: "[pg \(label)] the reference and the Cloner wrote different rows: \(rows)")
        }
        return result
    }

    /// Prints the table; false if a goal is missed.
    private func report(_ results: [SizeResult], large: SizeResult?) -> Bool {
        var passed = true
        let header = [
            "items", "rows copied", "setup s", "SQL s (med)", "SQL rows/s", "Cloner s (med)", "Cloner rows/s", "Cloner/SQL",
            "statements SQL / Cloner", "SQL peak RSS", "Cloner peak RSS",
        ]
        var lines: [[String]] = []
        var clonerStatements: Set<Int> = []
        for result in results + (large.map { [$0] } ?? []) {
            let rows = result.cloner[0].int("objects") + result.cloner[0].int("joins")
            let sqlSeconds = BenchReport.median(result.sql.map { $0.double("seconds") })
            let clonerSeconds = BenchReport.median(result.cloner.map { $0.double("seconds") })
            let ratio = sqlSeconds / clonerSeconds
            let statements = Set(result.cloner.map { $0.int("statements") })
            clonerStatements.formUnion(statements)
            lines.append([
                result.label, "\(rows)", String(format: "%.2f", result.setup.double("seconds")),
                String(format: "%.3f", sqlSeconds), String(format: "%.0f", Double(rows) / sqlSeconds),
                String(format: "%.3f", clonerSeconds), String(format: "%.0f", Double(rows) / clonerSeconds),
                String(format: "%.2f", ratio),
                "\(Set(result.sql.map { $0.int("statements") }).sorted().map(String.init).joined(separator: ",")) / "
                    + statements.sorted().map(String.init).joined(separator: ","),
                BenchReport.mib(result.sql.map { $0.int("hwm_kib") }.max() ?? 0), BenchReport.mib(result.cloner.map { $0.int("hwm_kib") }.max() ?? 0),
            ])
            if result.label == large?.label { continue }
            if ratio < PostgreSQLBenchSuite.targetRatio { passed = false }
        }
        Console.line()
        Console.line("PostgreSQL:")
        BenchReport.printTable(header: header, lines: lines)
        Console.line()
        Console.line(
            String(
                format:
                    "rows = objects created + join rows; medians of %d runs each, SQL and Cloner alternating with the order swapped every round (1 run for the gibibyte); every run in a fresh process.",
                sizes.rounds))
        Console.line("statements = what the server ran for one copy (pg_stat_statements calls, BEGIN/COMMIT included).")
        Console.line(String(format: "goal: Cloner/SQL ≥ %.2f for every size: %@", PostgreSQLBenchSuite.targetRatio, passed ? "met" : "NOT met"))
        let flat = clonerStatements.count == 1
        Console.line("Cloner statements per clone the same at every size: \(flat ? "yes" : "NO") (\(clonerStatements.sorted()))")
        passed = passed && flat
        if let large { passed = BenchReport.reportLargeRSS(large.cloner) && passed }
        return passed
    }
}
