import Foundation
import OpenAPIRuntime
import OpenAPIURLSession

// Usage: cloner-mobile-walk [SERVER_URL]
//   SERVER_URL            or CLONER_URL, e.g. http://127.0.0.1:8080 (default: the document's server)
//   CLONER_API_KEY        a full-access key (CLONER_API_KEYS of the service)
//   CLONER_READ_API_KEY   a read-only key (CLONER_READ_API_KEYS), for the 403 step
// Exits 0 when every answer was the expected one, 1 at the first that was not.

let environment = ProcessInfo.processInfo.environment
let arguments = CommandLine.arguments.dropFirst()
guard let fullKey = environment["CLONER_API_KEY"], let readKey = environment["CLONER_READ_API_KEY"] else {
    FileHandle.standardError.write(Data("set CLONER_API_KEY and CLONER_READ_API_KEY (a full and a read-only key)\n".utf8))
    exit(2)
}
let serverURL: URL
if let text = arguments.first ?? environment["CLONER_URL"] {
    guard let url = URL(string: text) else {
        FileHandle.standardError.write(Data("not a URL: \(text)\n".utf8))
        exit(2)
    }
    serverURL = url
} else {
    serverURL = try Servers.Server1.url()
}

/// The one line of configuration a Cloner client needs: the service answers dates with
/// milliseconds (`2026-11-21T20:15:29.123Z`), which the runtime's default transcoder rejects.
let configuration = Configuration(dateTranscoder: .iso8601WithFractionalSeconds)

func client(key: String?) -> Client {
    Client(serverURL: serverURL, configuration: configuration, transport: URLSessionTransport(),
           middlewares: key.map { [BearerToken(key: $0)] } ?? [])
}

let walk = MobileWalk(api: client(key: fullKey), readOnly: client(key: readKey), anonymous: client(key: nil))
do {
    try await walk.run()
    print("mobile walk: \(walk.steps.count) steps against \(serverURL.absoluteString), all answers as expected")
} catch {
    FileHandle.standardError.write(Data("mobile walk FAILED: \(error)\n".utf8))
    exit(1)
}
