import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// A list ordered by a to-one declared into an inheritance hierarchy
/// (docs/architecture.md#relationships-into-a-hierarchy): by the `_id` it holds, whichever
/// concrete entity that is, empty first ascending and last descending, paged by its cursor
/// without a row skipped or repeated. On the Publishing fixture (`Page.previous` → `BasePost`).
@Suite("Service: a list ordered by a field into an inheritance hierarchy")
struct HierarchyListOrderServiceTests {
    typealias F = EndToEndFixture

    /// Every page of `path` (two records a page), followed through `next`, as `_id`s.
    static func walk(_ client: ServiceClient, _ path: String) async throws -> [Int] {
        var ids: [Int] = []
        var next: String? = path
        while let url = next {
            let page = try await client.get(url)
            #expect(page.status == 200, "\(url): \(page.text)")
            let json = try page.json()
            ids += (json["data"] as? [[String: Any]] ?? []).compactMap { F.int($0["_id"]) }
            next = json["next"] as? String
            guard ids.count < 100 else { break }
        }
        return ids
    }

    @Test("ordered by previous, a post or a page, both ways and paged", arguments: StoreBackendKind.available)
    func orderByAFieldIntoAHierarchy(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: try HierarchyRelationshipServiceTests.model()) { service in
            let client = service.client
            let blog = try await client.createdID("blogs", #"{"name": "news"}"#)
            // _ids 1…4 of the hierarchy: a post, a page, a post, a page.
            var targets: [Int] = []
            for (collection, title) in [("posts", "a"), ("pages", "b"), ("posts", "c"), ("pages", "d")] {
                targets.append(try await client.createdID(collection, #"{"title": "\#(title)", "blog": \#(blog)}"#))
            }
            // Pages pointing back at them out of order, one at nothing.
            var pointing: [(page: Int, previous: Int?)] = []
            for previous in [targets[2], nil, targets[1], targets[3], targets[0]] {
                let body = previous.map { #"{"title": "p", "blog": \#(blog), "previous": \#($0)}"# } ?? #"{"title": "p", "blog": \#(blog)}"#
                pointing.append((try await client.createdID("pages", body), previous))
            }
            // Every page with what it points at (0 for nothing): the two targets that are pages
            // point nowhere.
            let previous = Dictionary(uniqueKeysWithValues: [(targets[1], 0), (targets[3], 0)] + pointing.map { ($0.page, $0.previous ?? 0) })
            let ascending = previous.keys.sorted { (previous[$0]!, $0) < (previous[$1]!, $1) }
            let ascendingRead = try await Self.walk(client, "/pages?order=previous&limit=2")
            #expect(ascendingRead == ascending, "empty first, then by the post or page it holds, paged: \(ascendingRead)")
            let descending = previous.keys.sorted { (previous[$0]!, -$0) > (previous[$1]!, -$1) }
            let descendingRead = try await Self.walk(client, "/pages?order=-previous,_id&limit=2")
            #expect(descendingRead == descending, "descending, empty last, paged: \(descendingRead)")

            let filtered = try await client.get("/pages?order=-previous&previous=\(targets[1])")
            #expect(try F.ints((filtered.json()["data"] as? [[String: Any]])?.compactMap { $0["_id"] }) == [pointing[2].page], "\(filtered.text)")
            let part = try await client.get("/pages?order=previous__Post")
            #expect(part.status == 422 && part.text.contains("order"), "a part's name orders nothing: \(part.text)")
            let toMany = try await client.get("/blogs?order=posts")
            #expect(toMany.status == 422, "a to-many orders nothing: \(toMany.text)")
        }
    }
}
