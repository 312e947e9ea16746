import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation

/// The `curl` command-line client, for the tests that check what an operator's runbook sees.
enum Curl {
    /// Runs curl with `arguments` (which should include `-i`) and parses the response it prints.
    static func run(_ arguments: [String], timeoutSeconds: Int = 60) async throws -> ClientResponse {
        try await Blocking.run { try runNow(arguments, timeoutSeconds: timeoutSeconds) }
    }

    private static func runNow(_ arguments: [String], timeoutSeconds: Int) throws -> ClientResponse {
        let out = Pipe.forChild(), err = Pipe.forChild()
        let process = try ChildProcess(
            "/usr/bin/curl", ["--noproxy", "*", "--max-time", "\(timeoutSeconds)"] + arguments,
            environment: ProcessInfo.processInfo.environment.filter { !$0.key.lowercased().hasSuffix("_proxy") },
            standardOutput: out.fileHandleForWriting.fileDescriptor, standardError: err.fileHandleForWriting.fileDescriptor)
        try out.fileHandleForWriting.close()
        try err.fileHandleForWriting.close()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        guard process.waitForExit(timeout: .seconds(30)) else {
            process.killAndReap()
            throw ClientError("curl \(arguments.joined(separator: " ")) closed its output but did not exit")
        }
        guard process.terminationStatus == 0 else {
            throw ClientError("curl \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(String(decoding: errors, as: UTF8.self))")
        }
        return try ClientResponse.parse(Array(output)).response
    }
}
