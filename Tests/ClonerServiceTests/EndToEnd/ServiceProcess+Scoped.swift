import ClonerTestSupport
import Foundation
import Testing

extension ServiceProcess {
    /// Runs `body` against a fresh service in a fresh temporary folder; the process is killed
    /// and the folder removed afterwards, whatever happens.
    static func withService<T>(
        backend: StoreBackendKind = .sqlite, environment: [String: String] = [:], arguments: [String] = [],
        _ body: (ServiceProcess) async throws -> T
    ) async throws -> T {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let service = try await ServiceProcess.start(directory: directory.url, backend: backend, environment: environment, arguments: arguments)
        // Stopped with an await, not in a `defer`: a synchronous wait for the child would hold a
        // thread of the small cooperative pool that other suites' async work (streamed bodies) needs.
        let result: T
        do {
            result = try await body(service)
        } catch {
            await service.stopAndWait()
            throw error
        }
        await service.stopAndWait()
        return result
    }

    /// `withService` on a model of the test's own, written to a file beside the database.
    static func withService<T>(
        backend: StoreBackendKind = .sqlite, modelText: String,
        _ body: (ServiceProcess) async throws -> T
    ) async throws -> T {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write(modelText, to: "model.json")
        return try await withService(backend: backend, arguments: ["--model", path], body)
    }
}
