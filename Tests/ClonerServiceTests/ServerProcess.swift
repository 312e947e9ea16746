import Foundation

/// The real `cloner serve` on an ephemeral port, a fresh database and the sample model, with a
/// full-access and a read-only API key; stdout (one JSON line per request) goes to a file.
final class ServerProcess {
    static let fullKey = "conformance-full-key"
    static let readKey = "conformance-read-key"

    private let process = Process()
    private let logURL: URL

    init(binary: URL, folder: URL) throws {
        logURL = folder.appendingPathComponent("server.log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: logURL)
        defer { try? output.close() }
        process.executableURL = binary
        process.arguments = [
            "serve", "--host", "127.0.0.1", "--port", "0",
            "--database", folder.appendingPathComponent("cloner.sqlite").path,
            "--model", repositoryRoot.appendingPathComponent("config/model.json").path,
            "--log-level", "info",
        ]
        // The folder has no config/cloner.json, and no CLONER_* variable of the caller leaks in.
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("CLONER_") }
        environment["CLONER_API_KEYS"] = ServerProcess.fullKey
        environment["CLONER_READ_API_KEYS"] = ServerProcess.readKey
        process.environment = environment
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Waits for the log line `listening`, which carries the port the kernel picked.
    func listeningPort() async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(60)
        while process.isRunning, ContinuousClock.now < deadline {
            let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") where line.contains(#""message":"listening""#) {
                if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                   let port = (object["port"] as? String).flatMap(Int.init) {
                    return port
                }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw StartError(log: (try? String(contentsOf: logURL, encoding: .utf8)) ?? "")
    }

    var isRunning: Bool { process.isRunning }

    func logTail() -> String {
        String(((try? String(contentsOf: logURL, encoding: .utf8)) ?? "").suffix(4000))
    }

    /// SIGTERM, as an orchestrator would; the drain is short on an idle server.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = ContinuousClock.now + .seconds(40)
        while process.isRunning && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    struct StartError: Error, CustomStringConvertible {
        let log: String
        var description: String { "cloner did not start:\n\(log)" }
    }
}
