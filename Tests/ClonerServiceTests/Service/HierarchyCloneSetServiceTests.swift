import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// A clone's `set` names a field declared into an inheritance hierarchy as any other
/// (docs/architecture.md#relationships-into-a-hierarchy): the `_id` of any concrete entity under
/// the declared destination, `null`, or a list; the store puts each `_id` in its part inside the
/// clone's transaction. On the Publishing fixture (`HierarchyRelationshipServiceTests.model`).
@Suite("Service: a clone's set on a field into an inheritance hierarchy")
struct HierarchyCloneSetServiceTests {
    typealias F = EndToEndFixture

    @Test("a to-one set to a post, a page or null; per copy; a wrong entity named; the source unchanged", arguments: StoreBackendKind.available)
    func toOneSetAcrossConcreteEntities(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: try HierarchyRelationshipServiceTests.model()) { service in
            let client = service.client
            let blog = try await client.createdID("blogs", #"{"name": "news"}"#)
            let post = try await client.createdID("posts", #"{"title": "p", "blog": \#(blog)}"#)
            let otherPage = try await client.createdID("pages", #"{"title": "o", "blog": \#(blog)}"#)
            let page = try await client.createdID("pages", #"{"title": "g", "blog": \#(blog), "previous": \#(post), "comments": [{"text": "c"}]}"#)

            // Blogs have their own `_id`s: one past every post and page so far.
            let stranger = try await Self.blogPastTheHierarchy(client, below: page)
            let wrong = try await client.post("/pages/\(page)/clone", #"{"set": {"previous": \#(stranger)}}"#)
            #expect(wrong.status == 422, "\(wrong.text)")
            #expect(wrong.text.contains("set.previous") && wrong.text.contains("BasePost") && wrong.text.contains("but a Blog has that _id"), "\(wrong.text)")

            func cloneOfPage(_ body: String) async throws -> [String: Any] {
                let cloned = try await client.post("/pages/\(page)/clone", body)
                #expect(cloned.status == 201, "\(body): \(cloned.text)")
                let id = try cloned.cloneID()
                return try await client.get("/pages/\(id)").json()
            }
            #expect(F.int(try await cloneOfPage(#"{"set": {"previous": \#(otherPage)}}"#)["previous"]) == otherPage, "a page in place of a post")
            #expect(F.int(try await cloneOfPage(#"{"set": {"previous": \#(post)}}"#)["previous"]) == post)
            let cleared = try await cloneOfPage(#"{"set": {"previous": null}}"#)
            #expect(cleared.keys.contains("previous") && F.int(cleared["previous"]) == nil, "\(cleared)")

            let dry = try await client.post("/pages/\(page)/clone", #"{"dryRun": true, "set": {"previous": \#(otherPage)}}"#)
            #expect(try dry.status == 200 && F.counts(dry.json()["created"]) == ["Page": 1, "Comment": 1], "the dry run agrees: \(dry.text)")

            let perCopy = try await client.post(
                "/pages/\(page)/clone", #"{"copies": [{"set": {"previous": \#(post)}}, {"set": {"previous": \#(otherPage)}}]}"#)
            #expect(perCopy.status == 201, "\(perCopy.text)")
            let clones = try #require(try perCopy.json()["clones"] as? [[String: Any]], "\(perCopy.text)")
            let copyIDs = clones.compactMap { F.int($0["id"]) }
            var previous: [Int?] = []
            for id in copyIDs { previous.append(F.int(try await client.get("/pages/\(id)").json()["previous"])) }
            #expect(previous == [post, otherPage], "each copy its own, each in its part")

            let wrongCopy = try await client.post("/pages/\(page)/clone", #"{"copies": [{"set": {"previous": \#(post)}}, {"set": {"previous": 999999}}]}"#)
            #expect(wrongCopy.status == 422 && wrongCopy.text.contains("copies[1].set.previous"), "\(wrongCopy.text)")
            let part = try await client.post("/pages/\(page)/clone", #"{"set": {"previous__Post": \#(post)}}"#)
            #expect(part.status == 422 && part.text.contains("set.previous__Post"), "a part's name is no field: \(part.text)")

            let comment = try #require(F.ints(try await client.get("/pages/\(page)").json()["comments"])?.first)
            let required = try await client.post("/comments/\(comment)/clone", #"{"set": {"post": null}}"#)
            #expect(required.status == 422 && required.text.contains("set.post"), "a required field stays required: \(required.text)")
            let moved = try await client.post("/comments/\(comment)/clone", #"{"set": {"post": \#(post)}}"#)
            let movedID = try moved.cloneID()
            #expect(F.int(try await client.get("/comments/\(movedID)").json()["post"]) == post, "a comment of a page, cloned onto a post")

            let source = try await client.get("/pages/\(page)").json()
            #expect(F.int(source["previous"]) == post && F.ints(source["comments"]) == [comment], "the source is unchanged: \(source)")
            #expect(F.ints(try await client.get("/posts/\(post)").json()["comments"]) == [movedID])
        }
    }

    @Test("a copy whose set names another blog goes to the end of that blog's whole ordered list", arguments: StoreBackendKind.available)
    func setJoinsTheEndOfAWholeOrderedList(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: try HierarchyRelationshipServiceTests.model()) { service in
            let client = service.client
            let source = try await client.createdID("blogs", #"{"name": "source"}"#)
            let page = try await client.createdID("pages", #"{"title": "g", "blog": \#(source)}"#)
            let target = try await client.createdID("blogs", #"{"name": "target"}"#)
            var listed: [Int] = []
            for (collection, title) in [("pages", "a"), ("posts", "b"), ("posts", "c")] {
                listed.append(try await client.createdID(collection, #"{"title": "\#(title)", "blog": \#(target)}"#))
            }
            #expect(F.ints(try await client.get("/blogs/\(target)").json()["posts"]) == listed)

            let cloned = try await client.post("/pages/\(page)/clone", #"{"set": {"blog": \#(target)}}"#)
            let copy = try cloned.cloneID()
            #expect(
                F.ints(try await client.get("/blogs/\(target)").json()["posts"]) == listed + [copy],
                "after the posts too, not only after the pages")
            #expect(F.ints(try await client.get("/blogs/\(source)").json()["posts"]) == [page], "the source's blog is unchanged")
        }
    }

    /// A new blog whose `_id` no post or page has: blogs are made until one passes `below`, the
    /// highest `_id` of the hierarchy so far.
    static func blogPastTheHierarchy(_ client: ServiceClient, below highest: Int) async throws -> Int {
        while true {
            let id = try await client.createdID("blogs", #"{"name": "elsewhere"}"#)
            if id > highest { return id }
        }
    }

    @Test("a to-many set to posts and pages together", arguments: StoreBackendKind.available)
    func toManySetAcrossConcreteEntities(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: try HierarchyRelationshipServiceTests.model()) { service in
            let client = service.client
            let blog = try await client.createdID("blogs", #"{"name": "news"}"#)
            let post = try await client.createdID("posts", #"{"title": "p", "blog": \#(blog)}"#)
            let page = try await client.createdID("pages", #"{"title": "g", "blog": \#(blog)}"#)
            #expect(try await client.patch("/blogs/\(blog)", #"{"featured": [\#(post)]}"#).status == 200)
            let stranger = try await Self.blogPastTheHierarchy(client, below: page)
            let wrong = try await client.post("/blogs/\(blog)/clone", #"{"set": {"featured": [\#(page), \#(stranger)]}}"#)
            #expect(
                wrong.status == 422 && wrong.text.contains("set.featured") && wrong.text.contains("but a Blog has that _id"), "\(wrong.status) \(wrong.text)")

            let cloned = try await client.post("/blogs/\(blog)/clone", #"{"set": {"featured": [\#(page), \#(post)]}}"#)
            #expect(cloned.status == 201, "\(cloned.text)")
            let copyID = try cloned.cloneID()
            let copy = try await client.get("/blogs/\(copyID)").json()
            #expect(F.ints(copy["featured"]) == [page, post], "both linked, each through its part, in the order given: \(copy)")
            #expect(F.ints(try await client.get("/blogs/\(blog)").json()["featured"]) == [post], "the source keeps its own list")

        }
    }
}
