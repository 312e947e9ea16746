// http-parser-fuzz: libFuzzer target for ClonerHTTP's request parser, and a replayer.
//
// Built with `-sanitize=fuzzer,address` (scripts/fuzz-parser.sh) it hands control to libFuzzer,
// which calls `LLVMFuzzerTestOneInput` with mutated inputs. Built normally it replays files
// and directories given as arguments through the same checks (plus the promise a seed's file
// name makes, see `SeedExpectation`) — how a crash file or the seed corpus is re-run in CI.
#if canImport(Glibc)
import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    ParserFuzzCheck.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}

#if LIBFUZZER
/// libFuzzer's entry for programs that keep their own `main`: SwiftPM renames ours and aliases
/// `main` to it, so libFuzzer's own `main` is never linked. Declared with C linkage and calling
/// convention (the build passes `-enable-experimental-feature Extern` with `-D LIBFUZZER`).
@_extern(c, "LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argc, &argv, fuzzOneInput))
#else
exit(CorpusReplay.run(paths: Array(CommandLine.arguments.dropFirst())))
#endif
