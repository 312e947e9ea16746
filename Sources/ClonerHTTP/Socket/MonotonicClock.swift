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
