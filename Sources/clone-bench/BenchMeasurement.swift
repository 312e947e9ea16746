import ClonerStore

/// One child process's answer: `key=value` pairs on a single line starting with `RESULT`, so the
/// parent can pick it out of anything else the child prints.
struct BenchMeasurement {
    var values: [String: String] = [:]

    static let marker = "RESULT"

    init(_ values: [String: String] = [:]) { self.values = values }

    /// The first RESULT line of `output`, if any.
    init?(parsing output: String) {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix(BenchMeasurement.marker + " ") }) else { return nil }
        for pair in line.split(separator: " ").dropFirst() {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { values[parts[0]] = parts[1] }
        }
    }

    var line: String {
        BenchMeasurement.marker + " " + values.keys.sorted().map { "\($0)=\(values[$0]!)" }.joined(separator: " ")
    }

    subscript(key: String) -> String? {
        get { values[key] }
        set { values[key] = newValue }
    }

    func double(_ key: String) -> Double { values[key].flatMap(Double.init) ?? 0 }
    func int(_ key: String) -> Int { values[key].flatMap(Int.init) ?? 0 }
}

extension BenchMeasurement {
    /// One copy's figures, on either store: the objects and join rows it added (from row counts
    /// taken before and after, checked against what the Cloner reports when it reports), its wall
    /// and CPU time, and the process's peak RSS before and after.
    init(
        copy mode: BenchRun.Mode, schema: StoreSchema, before: [String: Int], after: [String: Int], reportedObjects: Int,
        elapsed: Duration, cpuSeconds: Double, openedKiB: Int
    ) throws {
        let objects = schema.model.entities.reduce(0) { $0 + after[$1.name]! - before[$1.name]! }
        let joins = schema.joinTables.reduce(0) { $0 + after[$1.name]! - before[$1.name]! }
        if reportedObjects >= 0 && reportedObjects != objects {
            throw BenchVerification.Failure(description: "the Cloner reports \(reportedObjects) objects created, the tables grew by \(objects)")
        }
        self.init([
            "mode": mode.rawValue,
            "seconds": String(elapsed.seconds),
            "cpu_seconds": String(cpuSeconds),
            "objects": String(objects),
            "joins": String(joins),
            "hwm_kib": String(PeakMemory.residentHighWaterMarkKiB()),
            "opened_hwm_kib": String(openedKiB),
        ])
    }
}
