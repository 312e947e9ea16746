import Foundation
import Logging

extension ClonerApplication {
    /// Builds the application from `configuration` and starts it listening: the one way the
    /// service is started, by `cloner serve` and by the tests' in-process harness alike, so what
    /// the tests run is what ships.
    ///
    /// Every line the service logs — the JSON log and the access log — goes to `logOutput`
    /// (standard output for the executable, a pipe the test reads for the harness). A start that
    /// fails says so there ("cannot start") before the error is thrown; nothing listens then.
    /// - Returns: the running application and the port it listens on (the chosen one with port 0).
    public static func launch(
        configuration: ServiceConfiguration, metrics: ServiceMetrics = ServiceMetrics(),
        logOutput: Int32 = STDOUT_FILENO
    ) throws -> (application: ClonerApplication, port: Int) {
        let level = configuration.logLevel
        let logger = Logger(label: "cloner") { label in JSONLogHandler(label: label, level: level, fileDescriptor: logOutput) }
        do {
            let application = try ClonerApplication(configuration: configuration, logger: logger, metrics: metrics, logOutput: logOutput)
            let port = try application.start()
            return (application, port)
        } catch {
            logger.critical("cannot start", metadata: ["error": "\(error)"])
            throw error
        }
    }
}
