import ClonerModel
import Foundation

/// The whole benchmark: for each size, set a store up in one child process, then alternate the
/// reference SQL copy and the Cloner in fresh child processes on the same file, the order swapped
/// every round (SQL, Cloner, Cloner, SQL, SQL, Cloner…) so neither side always writes to the
/// larger file or runs with the warmer page cache, and report medians — the machine is shared,
/// so single figures are noise. Ends with
/// one clone of a note carrying a gibibyte of attachments, whose peak RSS must stay small.
struct BenchSuite {
    let modelPath: String
    var sizes = BenchSizes()
    var directory: URL
    var keep = false

    /// The goal: Cloner rows/s at least 0.85 × the hand-written SQL's (the line the suite
    /// prints says whether today's goal is met).
    static let targetRatio = 0.85
    static let largeRSSLimitKiB = 100 * 1_024

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    struct SizeResult {
        var label: String
        var items: Int
        var setup: BenchMeasurement
        var databaseBytes: Int
        var sql: [BenchMeasurement] = []
        var cloner: [BenchMeasurement] = []
    }

    func run() throws -> Bool {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { if !keep { try? FileManager.default.removeItem(at: directory) } }
        Console.line("clone-bench: working in \(directory.path)")

        let model = try ModelLoader.load(contentsOf: URL(fileURLWithPath: modelPath))
        Console.line(try BenchVerification(model: model).run(in: directory))

        let (results, large) = try sizes.measureEach { try measure(label: $0, items: $1, blobBytes: $2, rounds: $3) }
        return report(results, large: large)
    }

    private func measure(label: String, items: Int, blobBytes: Int, rounds: Int) throws -> SizeResult {
        let folder = directory.appendingPathComponent("items-\(items)-blob-\(blobBytes)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { if !keep { try? FileManager.default.removeItem(at: folder) } }
        let database = folder.appendingPathComponent("bench.sqlite").path
        let setup = try BenchChild.run(["setup", "--db", database, "--items", "\(items)", "--blob-bytes", "\(blobBytes)"], modelPath: modelPath)
        let size = (try? FileManager.default.attributesOfItem(atPath: database)[.size] as? Int) ?? 0
        var result = SizeResult(label: label, items: items, setup: setup, databaseBytes: size)
        Console.line(
            String(
                format: "[%@] setup %.2f s, RSS %@, file %@", label, setup.double("seconds"), BenchReport.mib(setup.int("hwm_kib")),
                BenchReport.mib(size / 1_024)))
        for round in 1...rounds {
            for mode in round % 2 == 1 ? ["sql", "cloner"] : ["cloner", "sql"] {
                let measurement = try BenchChild.run(["run", "--db", database, "--mode", mode, "--root", setup["root"] ?? "1"], modelPath: modelPath)
                if mode == "sql" { result.sql.append(measurement) } else { result.cloner.append(measurement) }
                let rows = measurement.int("objects") + measurement.int("joins")
                Console.line(
                    String(
                        format: "[%@] round %d %-6@ %8.3f s (CPU %.3f s)  %9d rows  %10.0f rows/s  peak RSS %@", label, round, mode,
                        measurement.double("seconds"), measurement.double("cpu_seconds"), rows,
                        Double(rows) / measurement.double("seconds"), BenchReport.mib(measurement.int("hwm_kib"))))
            }
        }
        let sqlRows = result.sql.map { $0.int("objects") + $0.int("joins") }
        let clonerRows = result.cloner.map { $0.int("objects") + $0.int("joins") }
        guard Set(sqlRows + clonerRows).count == 1 else {
            throw Failure(description: "[\(label)] the reference wrote \(sqlRows) rows and the Cloner \(clonerRows): not the same work")
        }
        return result
    }

    /// Prints the table; false if a goal is missed.
    private func report(_ results: [SizeResult], large: SizeResult?) -> Bool {
        var passed = true
        let header = [
            "items", "rows copied", "setup s", "setup RSS", "SQL s (med)", "SQL rows/s", "Cloner s (med)", "Cloner rows/s",
            "Cloner/SQL", "CPU s SQL / Cloner", "Cloner/SQL CPU", "SQL peak RSS", "Cloner peak RSS",
        ]
        var lines: [[String]] = []
        for result in results + (large.map { [$0] } ?? []) {
            let rows = result.cloner[0].int("objects") + result.cloner[0].int("joins")
            let sqlSeconds = BenchReport.median(result.sql.map { $0.double("seconds") })
            let clonerSeconds = BenchReport.median(result.cloner.map { $0.double("seconds") })
            let ratio = sqlSeconds / clonerSeconds
            let sqlCPU = BenchReport.median(result.sql.map { $0.double("cpu_seconds") })
            let clonerCPU = BenchReport.median(result.cloner.map { $0.double("cpu_seconds") })
            lines.append([
                result.label, "\(rows)", String(format: "%.2f", result.setup.double("seconds")), BenchReport.mib(result.setup.int("hwm_kib")),
                String(format: "%.3f", sqlSeconds), String(format: "%.0f", Double(rows) / sqlSeconds),
                String(format: "%.3f", clonerSeconds), String(format: "%.0f", Double(rows) / clonerSeconds),
                String(format: "%.2f", ratio), String(format: "%.3f / %.3f", sqlCPU, clonerCPU), String(format: "%.2f", sqlCPU / clonerCPU),
                BenchReport.mib(result.sql.map { $0.int("hwm_kib") }.max() ?? 0), BenchReport.mib(result.cloner.map { $0.int("hwm_kib") }.max() ?? 0),
            ])
            if result.label == large?.label { continue }
            if ratio < BenchSuite.targetRatio { passed = false }
        }
        Console.line()
        BenchReport.printTable(header: header, lines: lines)
        Console.line()
        Console.line(
            String(
                format: "rows = objects created + join rows; medians of %d alternating runs each (1 for the gibibyte run); every run in a fresh process.",
                sizes.rounds))
        Console.line("Cloner/SQL = SQL time / Cloner time = Cloner rows/s / SQL rows/s (wall clock); the CPU columns use user+system time of the copy alone.")
        Console.line(String(format: "goal: Cloner/SQL ≥ %.2f for every size: %@", BenchSuite.targetRatio, passed ? "met" : "NOT met"))
        if let large { passed = BenchReport.reportLargeRSS(large.cloner) && passed }
        return passed
    }
}
