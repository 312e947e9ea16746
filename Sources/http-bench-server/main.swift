// http-bench-server: ClonerHTTP serving GET /healthz the way the service does — real parsing,
// routing, request ids, and the JSON access log ON — so scripts/bench-http.sh can measure the
// server side by side with Hummingbird 2 before the full service exists.
//
//   http-bench-server [PORT [ACCESS_LOG_PATH [EVENT_LOOPS]]]   (defaults: 8081, /dev/null, one per core)
//
// Prints "listening on PORT" once bound; SIGINT or SIGTERM stops it gracefully.
#if canImport(Glibc)
import Glibc
#endif
import ClonerHTTP

func failAndExit(_ message: String) -> Never {
    var line = "http-bench-server: \(message)\n"
    line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    exit(1)
}

let arguments = CommandLine.arguments
let port = arguments.count > 1 ? Int(arguments[1]) ?? 8081 : 8081
let logPath = arguments.count > 2 ? arguments[2] : "/dev/null"
let loops = arguments.count > 3 ? Int(arguments[3]) : nil

// Block the stop signals before any loop thread exists, so every thread inherits the mask
// and only the sigwait below receives them.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGINT)
sigaddset(&stopSignals, SIGTERM)
pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

let accessLog: AccessLogLine
do {
    accessLog = try AccessLogLine(path: logPath)
} catch {
    failAndExit("\(error)")
}

let healthBody = Array(#"{"status":"ok"}"#.utf8)
var router = Router()
router.get("/healthz") { _ in .json(healthBody) }

var hooks = HTTPServer.Hooks()
hooks.accessLog = { record in accessLog.write(record) }

let server = HTTPServer(
    configuration: .init(host: "127.0.0.1", port: port, eventLoopCount: loops), router: router, hooks: hooks)
do {
    let bound = try server.start()
    // print() goes through a buffer that a killed process never flushes; the script waits for this line.
    var line = "listening on \(bound)\n"
    line.withUTF8 { bytes in _ = write(1, bytes.baseAddress, bytes.count) }
} catch {
    failAndExit("\(error)")
}

var received: Int32 = 0
sigwait(&stopSignals, &received)
server.shutdown(drainTimeout: .seconds(2))
