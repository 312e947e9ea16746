import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// Required relationships as Core Data means them: a required to-one must be given, a required
/// to-many may be left out or empty unless its `minCount` says otherwise, and `minCount`/`maxCount`
/// bound every create and PATCH (422 naming the field and the bound). The served create schema
/// requires exactly what the service does.
@Suite("Service: required relationships, minCount and maxCount")
struct RelationshipCountsServiceTests {
    typealias F = EndToEndFixture

    static let model = """
        { "entities": [
          { "name": "Basket", "collection": "baskets",
            "attributes": [ { "name": "label", "type": "string", "optional": true } ],
            "relationships": [
              { "name": "fruits", "destination": "Fruit", "toMany": true, "inverse": "basket", "optional": false },
              { "name": "eggs", "destination": "Egg", "toMany": true, "inverse": "basket", "optional": false, "minCount": 2, "maxCount": 3 },
              { "name": "extras", "destination": "Extra", "toMany": true, "inverse": "basket", "minCount": 2 } ] },
          { "name": "Fruit", "collection": "fruits",
            "relationships": [ { "name": "basket", "destination": "Basket", "inverse": "fruits" } ] },
          { "name": "Egg", "collection": "eggs",
            "relationships": [ { "name": "basket", "destination": "Basket", "inverse": "eggs" } ] },
          { "name": "Extra", "collection": "extras",
            "relationships": [ { "name": "basket", "destination": "Basket", "inverse": "extras", "optional": false } ] }
        ] }
        """

    static func expectRefused(
        _ answer: ClientResponse, field: String, saying words: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(answer.status == 422, "\(answer.text)", sourceLocation: sourceLocation)
        let problem = try answer.json()
        #expect(problem["field"] as? String == field, "\(answer.text)", sourceLocation: sourceLocation)
        #expect(answer.text.contains(words), "\(answer.text)", sourceLocation: sourceLocation)
    }

    @Test("a required to-many may be left out or empty; minCount and maxCount bound create and PATCH", arguments: StoreBackendKind.available)
    func countsBoundCreateAndPatch(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: Self.model) { service in
            let client = service.client
            let basket = try await client.create("baskets", #"{"eggs": [{}, {}]}"#)
            #expect(F.ints(basket["fruits"]) == [], "a required to-many without minCount may be left out")
            #expect(F.ints(basket["extras"]) == [], "an optional to-many with minCount may be empty")
            let id = try #require(F.int(basket["_id"]))
            _ = try await client.create("baskets", #"{"fruits": [], "eggs": [{}, {}, {}], "extras": []}"#)

            try Self.expectRefused(try await client.post("/baskets", "{}"), field: "eggs", saying: "minCount 2")
            try Self.expectRefused(try await client.post("/baskets", #"{"eggs": []}"#), field: "eggs", saying: "minCount 2")
            try Self.expectRefused(try await client.post("/baskets", #"{"eggs": [{}, {}, {}, {}]}"#), field: "eggs", saying: "maxCount 3")
            try Self.expectRefused(try await client.post("/baskets", #"{"eggs": [{}, {}], "extras": [{}]}"#), field: "extras", saying: "minCount 2")
            try Self.expectRefused(try await client.post("/extras", "{}"), field: "basket", saying: "required relationship to Basket is missing")

            let eggs = try #require(F.ints(basket["eggs"]))
            let spare = try await client.createdID("eggs", "{}")
            try Self.expectRefused(try await client.patch("/baskets/\(id)", #"{"eggs": [\#(eggs[0])]}"#), field: "eggs", saying: "minCount 2")
            try Self.expectRefused(
                try await client.patch("/baskets/\(id)", #"{"eggs": [\#(eggs[0]), \#(eggs[1]), \#(spare), {}]}"#), field: "eggs", saying: "maxCount 3")
            let patched = try await client.patch("/baskets/\(id)", #"{"eggs": [\#(eggs[0]), \#(eggs[1]), \#(spare)], "fruits": []}"#)
            #expect(patched.status == 200, "\(patched.text)")
            #expect(F.ints(try patched.json()["eggs"])?.count == 3)
        }
    }

    @Test("the served create schemas require exactly what the service requires, and a nested object leaves out the link its parent sets")
    func servedSchemasRequireWhatTheServiceDoes() async throws {
        try await TestService.withService(modelText: Self.model) { service in
            let document = try YAMLReader.parse(try await service.client.get("/openapi.yaml").body)
            let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
            let basket = try #require(schemas["BasketCreate"] as? [String: Any])
            #expect(basket["required"] as? [String] == ["eggs"])
            let eggs = try #require((basket["properties"] as? [String: Any])?["eggs"] as? [String: Any])
            #expect(F.int(eggs["minItems"]) == 2 && F.int(eggs["maxItems"]) == 3)
            let extras = try #require((basket["properties"] as? [String: Any])?["extras"] as? [String: Any])
            #expect(extras["minItems"] == nil, "an optional to-many may be empty whatever its minCount")
            let extra = try #require(schemas["ExtraCreate"] as? [String: Any])
            #expect(extra["required"] as? [String] == ["basket"])
            let nested = try #require(schemas["ExtraCreateUnderBasket"] as? [String: Any])
            #expect(nested["required"] == nil && (nested["properties"] as? [String: Any])?["basket"] == nil)
            let items = try #require((extras["items"] as? [String: Any])?["oneOf"] as? [[String: Any]])
            #expect(items.last?["$ref"] as? String == "#/components/schemas/ExtraCreateUnderBasket")
            #expect(schemas["FruitCreateUnderBasket"] == nil, "an optional link needs no schema of its own")
            try OpenAPIValidator.validate(try await service.client.get("/openapi.yaml").body)
        }
    }
}
