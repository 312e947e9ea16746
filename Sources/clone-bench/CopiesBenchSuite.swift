import Foundation

/// Many copies in one request against as many single clone requests, and against
/// `ReferenceCopies` — the same copies hand-written set-based in one transaction, as a developer
/// who knows the graph would write them for speed: source rows staged once, (copy, old) → new maps
/// for all copies, one INSERT … SELECT per table, statements prepared once (for `--copies 1`, the
/// one-copy `ReferenceCopy`). Each measurement runs in a fresh child process on the same file,
/// alternating; medians are reported in objects/s with the load average, and every way must add
/// the same number of objects.
///
/// Run for each attachment size: a note whose items carry no attachment, where what a request
/// costs besides its rows shows, and one whose items carry a blob each, where the bytes copied
/// (the same for both ways) take over.
struct CopiesBenchSuite {
    let modelPath: String
    var directory: URL
    var items = 100
    var copies = 100
    var rounds = 3
    var attachmentSizes = [0, 4_096]
    var keep = false

    /// Goals: the batch at least 3× the single requests, and at least half the set-based
    /// hand-written copy.
    static let singlesTarget = 3.0
    static let referenceTarget = 0.5

    func run() throws -> Bool {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { if !keep { try? FileManager.default.removeItem(at: directory) } }
        var met = true
        for (index, bytes) in attachmentSizes.enumerated() {
            if index > 0 { Console.line() }
            met = try run(attachmentBytes: bytes) && met
        }
        return met
    }

    private func run(attachmentBytes: Int) throws -> Bool {
        let database = directory.appendingPathComponent("copies-\(attachmentBytes).sqlite").path
        let setup = try BenchChild.run(["setup", "--db", database, "--items", "\(items)", "--blob-bytes", "\(attachmentBytes)"], modelPath: modelPath)
        let root = setup["root"] ?? "1"
        let attachments = attachmentBytes == 0 ? "1-byte attachments (randomblob(0))" : "a \(attachmentBytes)-byte attachment per item"
        Console.line("clone-bench copies: a note of \(items) items with \(attachments), \(copies) copies; load average before: \(Self.loadAverage())")
        var seconds: [String: [Double]] = [:]
        var objects: [String: Int] = [:]
        for round in 1...rounds {
            // The order rotates every round, so no way always runs first (on the smaller file).
            let modes = ["singles", "cloner", "sql"]
            for index in modes.indices {
                let mode = modes[(index + round - 1) % modes.count]
                let measurement = try BenchChild.run(
                    ["run", "--db", database, "--mode", mode, "--root", root, "--copies", "\(copies)"],
                    modelPath: modelPath)
                let count = measurement.int("objects")
                if let known = objects[mode], known != count {
                    throw BenchSuite.Failure(description: "\(mode) wrote \(count) objects, earlier \(known)")
                }
                objects[mode] = count
                seconds[mode, default: []].append(measurement.double("seconds"))
                Console.line(
                    String(
                        format: "round %d %-7@ %8.3f s  %7d objects  %9.0f objects/s", round, mode,
                        measurement.double("seconds"), count, Double(count) / measurement.double("seconds")))
            }
        }
        guard Set(objects.values).count == 1, let count = objects.values.first else {
            throw BenchSuite.Failure(description: "the three ways wrote different numbers of objects: \(objects)")
        }
        let rate = { (mode: String) in Double(count) / Self.median(seconds[mode] ?? []) }
        let batch = rate("cloner"), singles = rate("singles"), reference = rate("sql")
        let overSingles = batch / singles, overReference = batch / reference
        Console.line()
        Console.line(String(format: "objects per run: %d (%d copies of %d)", count, copies, count / copies))
        Console.line(String(format: "%d single clone requests:      %9.0f objects/s", copies, singles))
        Console.line(String(format: "one request for %d copies:     %9.0f objects/s", copies, batch))
        Console.line(String(format: "hand-written set-based SQL:    %9.0f objects/s", reference))
        Console.line(
            String(format: "batch / singles: %.2f (goal ≥ %.1f): %@", overSingles, Self.singlesTarget, overSingles >= Self.singlesTarget ? "met" : "NOT met"))
        Console.line(
            String(
                format: "batch / SQL:     %.2f (goal ≥ %.1f): %@", overReference, Self.referenceTarget,
                overReference >= Self.referenceTarget ? "met" : "NOT met"))
        Console.line("medians of \(rounds) alternating runs, each in a fresh process; load average after: \(Self.loadAverage())")
        return overSingles >= Self.singlesTarget && overReference >= Self.referenceTarget
    }

    static func median(_ values: [Double]) -> Double { BenchReport.median(values) }

    static func loadAverage() -> String { BenchReport.loadAverage() }
}
