import ClonerClone
import ClonerModel
import ClonerStore
import Foundation

/// One measured copy in its own process (so VmHWM is this copy's peak): opens the store as the
/// service would, counts rows, copies the note with the Cloner or the reference SQL, counts again.
/// Only the copy itself is timed; the row counts around it also prove both wrote the same rows.
struct BenchRun {
    enum Mode: String {
        /// One clone request; with `copies` > 1 one request for that many copies.
        case cloner
        /// The hand-written reference: `ReferenceCopy` for one copy, `ReferenceCopies` (all copies
        /// set-based in one pass) for more.
        case sql
        /// `copies` single clone requests, one after another, each its own transaction.
        case singles
    }

    let model: DataModel
    let database: String
    let root: Int64
    let mode: Mode
    var copies = 1
    /// Print each statement's time (SQLite's own clock) after the run, slowest first.
    var profile = false

    func run() throws -> BenchMeasurement {
        let store = try IncrementalStore(path: database, model: model)
        let before = try BenchRun.rowCounts(store)
        let openedKiB = PeakMemory.residentHighWaterMarkKiB()
        let clock = ContinuousClock()
        let start = clock.now
        let startCPU = ProcessorTime.seconds()
        var reportedObjects = -1
        switch mode {
        case .cloner:
            // No object limit: the service's guard is not what is measured, and the largest sizes pass it.
            let engine = CloneEngine(store: store)
            let plan = try engine.plan(
                CloneRequest(
                    entity: "Note", id: root, maximumObjects: .max,
                    copies: copies > 1 ? copies : nil, maximumCopies: .max))
            typealias Profile = [(sql: String, runs: Int, nanoseconds: Int64)]
            let (created, statements) = try store.write { context -> (GraphCopyResult, Profile) in
                let copy = { try context.copyGraph(plan.copy, now: Date(), progress: GraphCopyProgress()) }
                guard profile else { return (try copy(), []) }
                return try context.sqliteConnection.profilingStatements(copy)
            }
            reportedObjects = created.created.values.reduce(0, +)
            Self.printProfile(statements)
        case .sql:
            let statements = try store.write { context in
                let copy = {
                    copies == 1 ? [try ReferenceCopy(root: root).run(in: context)] : try ReferenceCopies(root: root, copies: copies).run(in: context)
                }
                guard profile else {
                    _ = try copy()
                    return [(sql: String, runs: Int, nanoseconds: Int64)]()
                }
                return try context.sqliteConnection.profilingStatements(copy).statements
            }
            Self.printProfile(statements)
        case .singles:
            let engine = CloneEngine(store: store)
            reportedObjects = 0
            for _ in 0..<copies {
                reportedObjects += try engine.clone(CloneRequest(entity: "Note", id: root, maximumObjects: .max)).totalCreated
            }
        }
        let elapsed = clock.now - start
        let cpu = ProcessorTime.seconds() - startCPU
        let after = try BenchRun.rowCounts(store)
        return try BenchMeasurement(
            copy: mode, schema: store.schema, before: before, after: after, reportedObjects: reportedObjects,
            elapsed: elapsed, cpuSeconds: cpu, openedKiB: openedKiB)
    }

    /// The statements of a profiled copy, slowest first, on standard error (the RESULT line stays
    /// the only line on standard output).
    private static func printProfile(_ statements: [(sql: String, runs: Int, nanoseconds: Int64)]) {
        guard !statements.isEmpty else { return }
        let total = statements.reduce(0) { $0 + $1.nanoseconds }
        var lines = [String(format: "%d statements, %.3f ms in SQLite:", statements.count, Double(total) / 1e6)]
        for statement in statements.sorted(by: { $0.nanoseconds > $1.nanoseconds }) {
            let text = statement.sql.replacingOccurrences(of: "\n", with: " ")
            lines.append(
                String(
                    format: "%8.3f ms %5.1f%% ×%d  %@", Double(statement.nanoseconds) / 1e6,
                    100 * Double(statement.nanoseconds) / Double(max(total, 1)), statement.runs, String(text.prefix(Self.profileTextLength))))
        }
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    /// How much of each statement's text the profile prints: `CLONE_BENCH_PROFILE_TEXT`, or 160
    /// characters.
    private static var profileTextLength: Int {
        ProcessInfo.processInfo.environment["CLONE_BENCH_PROFILE_TEXT"].flatMap { Int($0) } ?? 160
    }

    /// Rows per entity table and join table.
    static func rowCounts(_ store: IncrementalStore) throws -> [String: Int] {
        try store.read { context in
            var counts: [String: Int] = [:]
            let tables = context.model.entities.map(\.name) + context.schema.joinTables.map(\.name)
            for table in tables {
                counts[table] = Int(try context.sqliteConnection.scalar("SELECT count(*) FROM \(quoted(table))")?.int64 ?? 0)
            }
            return counts
        }
    }
}
