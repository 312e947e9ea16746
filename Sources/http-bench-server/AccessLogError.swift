#if canImport(Glibc)
import Glibc
#endif

/// The access log file could not be opened.
struct AccessLogError: Error, CustomStringConvertible {
    var path: String
    var errno: Int32

    var description: String { "cannot open access log \(path): \(String(cString: strerror(errno)))" }
}
