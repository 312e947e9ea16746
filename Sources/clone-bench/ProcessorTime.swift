import Foundation

/// CPU time this process has used (user + system), from getrusage. On a shared, loaded machine
/// wall time includes waiting for a core; CPU time does not, so the two together tell noise from
/// real cost.
enum ProcessorTime {
    static func seconds() -> Double {
        var usage = rusage()
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return 0 }
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return user + system
    }
}
