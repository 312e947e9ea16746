import ClonerServiceTestSupport
import Foundation
import Testing

/// The model's hard cases over HTTP, with a model of its own: `uniqueTogether` (409 naming every attribute in
/// create, PATCH and clone; GET /model) and self-inverse relationships read from both sides.
@Suite("Service: uniqueTogether and self-inverse relationships")
struct HardModelServiceTests {
    typealias F = EndToEndFixture

    static let model = """
        { "entities": [
          { "name": "Person", "collection": "people",
            "uniqueTogether": [["firstName", "lastName"]],
            "attributes": [
              { "name": "firstName", "type": "string" },
              { "name": "lastName", "type": "string" } ],
            "relationships": [
              { "name": "spouse", "destination": "Person", "inverse": "spouse" },
              { "name": "friends", "destination": "Person", "toMany": true, "inverse": "friends" } ] }
        ] }
        """

    static func withService(_ body: (TestService) async throws -> Void) async throws {
        try await TestService.withService(modelText: model, body)
    }

    static func expectConflict(_ response: ClientResponse, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(response.status == 409, "\(response.text)", sourceLocation: sourceLocation)
        let problem = try response.json()
        #expect(problem["code"] as? String == "conflict", sourceLocation: sourceLocation)
        let detail = problem["detail"] as? String ?? ""
        #expect(detail.contains("Person.firstName") && detail.contains("Person.lastName"), "\(detail)", sourceLocation: sourceLocation)
        #expect(F.errorFields(problem) == ["firstName", "lastName"], sourceLocation: sourceLocation)
    }

    @Test("uniqueTogether: a clash in create, PATCH or clone is a 409 conflict naming both attributes; GET /model shows the group")
    func uniqueTogetherConflicts() async throws {
        try await HardModelServiceTests.withService { service in
            let client = service.client
            let ada = try await client.createdID("people", #"{"firstName":"Ada","lastName":"Lovelace"}"#)
            let byron = try await client.createdID("people", #"{"firstName":"Ada","lastName":"Byron"}"#)
            try HardModelServiceTests.expectConflict(try await client.post("/people", #"{"firstName":"Ada","lastName":"Lovelace"}"#))
            try HardModelServiceTests.expectConflict(try await client.patch("/people/\(byron)", #"{"lastName":"Lovelace"}"#))
            try HardModelServiceTests.expectConflict(try await client.post("/people/\(ada)/clone", nil))
            #expect(try await service.count("Person") == 2, "nothing half-written")
            let clone = try await client.post("/people/\(ada)/clone", #"{"set": {"lastName": "King"}}"#)
            #expect(clone.status == 201, "\(clone.text)")

            let model = try await client.get("/model").json()
            let entity = try #require((model["entities"] as? [[String: Any]])?.first)
            #expect(entity["uniqueTogether"] as? [[String]] == [["firstName", "lastName"]])
        }
    }

    @Test("self-inverse: spouse and friends set from one side read from both; a PATCH moves a spouse and clears the old one")
    func selfInverseRecords() async throws {
        try await HardModelServiceTests.withService { service in
            let client = service.client
            let a = try await client.createdID("people", #"{"firstName":"A","lastName":"X"}"#)
            let b = try await client.createdID("people", #"{"firstName":"B","lastName":"X","spouse":\#(a),"friends":[\#(a)]}"#)
            var readA = try await client.get("/people/\(a)").json()
            #expect(F.int(readA["spouse"]) == b)
            #expect(F.ints(readA["friends"]) == [b])
            let c = try await client.createdID("people", #"{"firstName":"C","lastName":"X"}"#)
            #expect(try await client.patch("/people/\(c)", #"{"spouse":\#(a)}"#).status == 200)
            readA = try await client.get("/people/\(a)").json()
            #expect(F.int(readA["spouse"]) == c)
            #expect(try await client.get("/people/\(b)").json()["spouse"] is NSNull)
            #expect(try await client.delete("/people/\(b)").status == 204)
            #expect(F.ints(try await client.get("/people/\(a)").json()["friends"]) == [])
        }
    }
}
