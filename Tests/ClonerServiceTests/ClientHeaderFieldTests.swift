import ClonerHTTP
import ClonerTestSupport
import Foundation
import Testing

/// Every header a client may send as a parameter is read canonically: the header parameters
/// openapi.yaml declares are exactly `ClientHeaderField.all`, so a new one cannot be read raw by
/// mistake (nor a field kept in the list after the description dropped it).
@Suite struct ClientHeaderFieldTests {
    @Test func theDescribedHeaderParametersAreTheCanonicalFields() throws {
        let text = try Data(contentsOf: repositoryRoot.appendingPathComponent("openapi.yaml"))
        let document = try YAMLReader.parse(Array(text))
        var described: Set<String> = []
        OpenAPIDocumentTests.walkObjects(document) { object in
            if object["in"] as? String == "header", let name = object["name"] as? String { described.insert(name.lowercased()) }
        }
        #expect(!described.isEmpty)
        #expect(described == Set(ClientHeaderField.all.map { $0.name.lowercased() }))
    }
}
