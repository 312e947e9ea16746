import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// `?count=true` adds to a list the number of records its filters match, on every page, and is a
/// control of the list query: a property named `count` is filtered as `where.count`.
@Suite("Service: list counts")
struct ListCountServiceTests {
    typealias F = EndToEndFixture

    static let boxModel = """
        { "entities": [
          { "name": "Box", "collection": "boxes",
            "attributes": [ { "name": "count", "type": "integer", "default": 0 } ] }
        ] }
        """

    /// Five notes: three named `a`, two `b`.
    static func seedNotes(_ client: ServiceClient) async throws {
        for name in ["a", "b", "a", "b", "a"] { _ = try await client.create("notes", F.note("\"name\":\"\(name)\"")) }
    }

    @Test("count with and without filters; absent unless asked", arguments: StoreBackendKind.available)
    func countMatchesTheFilters(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            try await Self.seedNotes(client)
            let all = try await client.get("/notes?count=true").json()
            #expect(F.int(all["count"]) == 5)
            #expect((all["data"] as? [Any])?.count == 5)
            #expect(F.int(try await client.get("/notes?name=a&count=true").json()["count"]) == 3)
            #expect(F.int(try await client.get("/notes?where.name=b&count=true").json()["count"]) == 2)
            #expect(F.int(try await client.get("/notes?name=none&count=true").json()["count"]) == 0)
            #expect(F.int(try await client.get("/notes?template=null&count=true").json()["count"]) == 5)
            #expect(try await client.get("/notes").json()["count"] == nil)
            #expect(try await client.get("/notes?count=false").json()["count"] == nil)
        }
    }

    @Test("every page of a counted list carries the same count, and next keeps asking for it", arguments: StoreBackendKind.available)
    func pagingKeepsTheCount(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            try await Self.seedNotes(client)
            var path: String? = "/notes?name=a&limit=2&count=true&order=-createDate"
            var pages = 0
            var seen: [Int] = []
            while let next = path {
                let page = try await client.get(next).json()
                #expect(F.int(page["count"]) == 3, "\(next)")
                seen += (page["data"] as? [[String: Any]] ?? []).compactMap { F.int($0["_id"]) }
                path = page["next"] as? String
                if let path { #expect(path.contains("count=true"), "\(path)") }
                pages += 1
            }
            #expect(pages == 2)
            #expect(seen.sorted() == [1, 3, 5])
        }
    }

    @Test("a count that is not true or false is a 422 naming the parameter", arguments: StoreBackendKind.available)
    func aBadCountIsNamed(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let answer = try await service.client.get("/notes?count=maybe")
            #expect(answer.status == 422, "\(answer.text)")
            let problem = try answer.json()
            #expect(problem["field"] as? String == "count", "\(answer.text)")
            #expect(F.errorFields(problem) == ["count"])
            let twice = try await service.client.get("/notes?count=true&count=false")
            #expect(twice.status == 422, "\(twice.text)")
        }
    }

    @Test("a property named count is filtered as where.count; count stays the control", arguments: StoreBackendKind.available)
    func aPropertyNamedCount(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: Self.boxModel) { service in
            let client = service.client
            for count in [3, 3, 7] { _ = try await client.create("boxes", "{\"count\": \(count)}") }
            let threes = try await client.get("/boxes?where.count=3&count=true").json()
            #expect(F.int(threes["count"]) == 2)
            #expect((threes["data"] as? [[String: Any]] ?? []).allSatisfy { F.int($0["count"]) == 3 })
            #expect(try await client.get("/boxes?count=3").status == 422)
            let answer = try await client.get("/openapi.yaml")
            let document = try YAMLReader.parse(answer.body)
            let list = (((document["paths"] as? [String: Any])?["/boxes"] as? [String: Any])?["get"] as? [String: Any])?["parameters"]
            let names = (list as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(names.filter { $0 == "count" }.count == 1, "\(names)")
            #expect(names.contains("where.count"), "the served description filters count explicitly: \(names)")
            try OpenAPIValidator.validate(answer.body)
        }
    }
}
