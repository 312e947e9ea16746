#if canImport(Glibc)
import Glibc
#endif

/// A broken invariant: prints what broke and the transcript so far, then aborts so libFuzzer
/// (or the replay run) stops with the input saved. `abort` rather than `fatalError` so the
/// message is ours and libFuzzer's deadly-signal handler writes the crash file.
func fuzzFail(_ message: String, _ context: some CustomStringConvertible) -> Never {
    writeToStandardError("http-parser-fuzz: invariant broken: \(message)\n\(context)\n")
    abort()
}

/// Straight to descriptor 2: C's `stderr` is a global Swift 6 will not share across threads.
func writeToStandardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

@inline(__always)
func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String, _ context: @autoclosure () -> some CustomStringConvertible) {
    if !condition { fuzzFail(message(), context()) }
}
