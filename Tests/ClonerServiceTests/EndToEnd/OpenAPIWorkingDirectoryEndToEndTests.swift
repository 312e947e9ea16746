import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// The served OpenAPI document is built into the binary: `cloner serve` started in a folder that
/// holds no openapi.yaml (its working directory, which only a process of its own has) serves it.
@Suite("End to end: the OpenAPI document from any working directory")
struct OpenAPIWorkingDirectoryEndToEndTests {
    @Test("GET /openapi.yaml answers the document when the working directory has no openapi.yaml")
    func servedFromAnyWorkingDirectory() async throws {
        try await ServiceProcess.withService { service in
            #expect(!FileManager.default.fileExists(atPath: service.directory.appendingPathComponent("openapi.yaml").path))
            let openAPI = try await service.client.get("/openapi.yaml")
            #expect(openAPI.status == 200)
            #expect(openAPI.text.hasPrefix("openapi: 3.1") || openAPI.text.contains("\nopenapi: 3.1"))
            #expect(openAPI.text.contains("\"/notes/{id}/clone\""), "specialised to the loaded model")
        }
    }
}
