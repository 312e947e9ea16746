import Foundation

/// The process's own memory figures from /proc/self/status (Linux): each benchmark run is a fresh
/// process, so its high-water mark is that run's peak and nothing else's.
enum PeakMemory {
    /// VmHWM, the peak resident set size, in KiB; 0 where /proc is not available.
    static func residentHighWaterMarkKiB() -> Int { field("VmHWM") }

    /// VmRSS, the current resident set size, in KiB.
    static func residentKiB() -> Int { field("VmRSS") }

    private static func field(_ name: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let digits = line.dropFirst(name.count + 1).filter(\.isNumber)
            return Int(digits) ?? 0
        }
        return 0
    }
}
