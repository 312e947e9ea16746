import Foundation

/// What every suite prints its figures with: medians (the machine is shared, so single runs are
/// noise), sizes in MiB, the load average, and a Markdown table that pastes into docs/benchmarks.md.
enum BenchReport {
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func mib(_ kib: Int) -> String { String(format: "%.1f MiB", Double(kib) / 1_024) }

    static func loadAverage() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "unknown"
    }

    static func printTable(header: [String], lines: [[String]]) {
        let widths = header.indices.map { column in ([header[column]] + lines.map { $0[column] }).map(\.count).max()! }
        func format(_ cells: [String]) -> String {
            "| " + cells.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: " | ") + " |"
        }
        Console.line(format(header))
        Console.line("|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|")
        for line in lines { Console.line(format(line)) }
    }

    /// Prints the gibibyte run's peak RSS against its limit (blobs must never pass through the
    /// service's memory); false when over.
    static func reportLargeRSS(_ cloner: [BenchMeasurement]) -> Bool {
        let peak = cloner.map { $0.int("hwm_kib") }.max() ?? 0
        let ok = peak < BenchSuite.largeRSSLimitKiB
        Console.line("gibibyte of attachments: Cloner peak RSS \(mib(peak)) (limit \(mib(BenchSuite.largeRSSLimitKiB))): \(ok ? "met" : "NOT met")")
        return ok
    }
}
