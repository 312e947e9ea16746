#if canImport(Glibc)
import Glibc
#endif

/// Monotonic nanoseconds for deadlines. A plain integer, read once per loop iteration, because
/// deadlines are compared thousands of times a second and `ContinuousClock.now` is heavier.
enum MonotonicClock {
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }
}

extension Duration {
    /// Whole nanoseconds, saturating: limits are configured as `Duration`, deadlines are integers.
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        let (product, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? UInt64.max / 2 : product + UInt64(attoseconds / 1_000_000_000)
    }
}
