import Foundation

/// Runs this binary again as a child process (one measurement, its own peak memory) and returns
/// its RESULT line.
enum BenchChild {
    static func run(_ arguments: [String], modelPath: String) throws -> BenchMeasurement {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = arguments + ["--model", modelPath]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0, let measurement = BenchMeasurement(parsing: text) else {
            throw BenchSuite.Failure(description: "clone-bench \(arguments.joined(separator: " ")) exited with \(process.terminationStatus): \(text)")
        }
        return measurement
    }
}
