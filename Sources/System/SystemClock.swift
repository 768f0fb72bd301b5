#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's clocks: the wall clock for dates, the monotonic clock for elapsed times and deadlines.
///
/// The monotonic clock never steps back when the wall clock is set (`CLOCK_MONOTONIC`,
/// https://man7.org/linux/man-pages/man2/clock_gettime.2.html); the C side's request budgets read the same clock.
public enum SystemClock {
    /// Seconds from the monotonic clock, for elapsed times and deadlines (its origin is unspecified).
    @inline(__always)
    public static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Milliseconds since 1970 from the wall clock.
    public static func wallMilliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}
