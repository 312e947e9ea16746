import ClonerService
import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// What a client reads of relationships into a hierarchy besides the records themselves: the
/// served description (one field per declared relationship, the abstract collections answering
/// a `oneOf` told apart by `_entity`) and a clone's `exclude` naming such a field.
@Suite("Service: the description and exclusions of fields into a hierarchy")
struct HierarchyDocumentServiceTests {
    typealias F = EndToEndFixture

    /// The generated parts of the served document: each path and each schema is one line of JSON
    /// after its key (`  "/posts": {…}`, `    PostRecord: {…}`), which is how the document writes them.
    static func generated(_ text: String) throws -> (paths: [String: Any], schemas: [String: Any]) {
        var paths: [String: Any] = [:]
        var schemas: [String: Any] = [:]
        for line in text.split(separator: "\n") {
            if line.hasPrefix("  \"/"), let split = line.range(of: "\": ") {
                let key = String(line[line.index(line.startIndex, offsetBy: 3)..<split.lowerBound])
                paths[key] = try JSONSerialization.jsonObject(with: Data(line[split.upperBound...].utf8))
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), let split = line.range(of: ": {"), line.hasSuffix("}") {
                let key = String(line.dropFirst(4)[..<split.lowerBound])
                let json = line[line.index(before: split.upperBound)...]
                if let value = try? JSONSerialization.jsonObject(with: Data(json.utf8)) { schemas[key] = value }
            }
        }
        return (paths, schemas)
    }

    @Test("the description has one field per declared relationship and read-only abstract collections", arguments: StoreBackendKind.available)
    func theDescription(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: try HierarchyRelationshipServiceTests.model()) { service in
            let text = try await service.client.get("/openapi.yaml")
            #expect(text.status == 200)
            try OpenAPIValidator.validate(text.body)
            #expect(!text.text.contains("__"), "no stored part of a field is described")
            let (paths, schemas) = try Self.generated(text.text)
            func properties(_ name: String) throws -> [String: Any] {
                try #require((schemas[name] as? [String: Any])?["properties"] as? [String: Any], "\(name)")
            }
            // Fields into BasePost: one each, an _id (or ids) whatever concrete entity holds it.
            #expect(try properties("CommentRecord")["post"] != nil)
            #expect(try properties("BlogRecord")["posts"] != nil && properties("BlogRecord")["featured"] != nil)
            #expect(try properties("PageRecord")["previous"] != nil && properties("FolderRecord")["subcollections"] != nil)
            // A nested object of such a field is any concrete entity's create, named by `_entity`.
            let posts = try #require(try properties("BlogCreate")["posts"] as? [String: Any])
            let items = try #require((posts["items"] as? [String: Any])?["oneOf"] as? [Any])
            // Named, so that a client generator boxes a create that holds itself (a post's previous post).
            let union = try #require((items.last as? [String: Any])?["$ref"] as? String)
            #expect(union == "#/components/schemas/BasePostCreate")
            let nested = try #require((schemas["BasePostCreate"] as? [String: Any])?["oneOf"] as? [[String: Any]])
            #expect(Set(nested.compactMap { $0["$ref"] as? String }).count == 2, "a Post or a Page: \(nested)")
            // A comment nested in a post leaves out its required `post`: a create schema of its own.
            #expect(schemas["CommentCreateUnderPost"] != nil)
            let required = try #require((schemas["CommentCreate"] as? [String: Any])?["required"] as? [String])
            #expect(required.contains("post"))

            let list = try #require(paths["/baseposts"] as? [String: Any])
            #expect(list["get"] != nil && list["post"] == nil, "read-only")
            let one = try #require((paths["/baseposts/{id}"] as? [String: Any])?["get"] as? [String: Any])
            let answer = try #require(
                ((((one["responses"] as? [String: Any])?["200"] as? [String: Any])?["content"] as? [String: Any])?["application/json"]
                    as? [String: Any])?["schema"] as? [String: Any])
            let record = try #require(answer["$ref"] as? String).replacingOccurrences(of: "#/components/schemas/", with: "")
            let discriminator = try #require((schemas[record] as? [String: Any])?["discriminator"] as? [String: Any], "\(record)")
            #expect(discriminator["propertyName"] as? String == "_entity")
            #expect(Set(((discriminator["mapping"] as? [String: String]) ?? [:]).keys) == ["Post", "Page"])
            #expect(paths["/contents"] != nil && paths["/collections/{id}"] != nil, "every abstract entity has one")
        }
    }

    /// The bare declared name at the root is `HierarchyRelationshipServiceTests`'; here a to-many
    /// at the root and qualified names, which leave a field out wherever its entity is copied.
    @Test("exclude names a field into a hierarchy by its declared name", arguments: StoreBackendKind.available)
    func excludeByDeclaredName(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: try HierarchyRelationshipServiceTests.model()) { service in
            let client = service.client
            let blog = try await client.createdID("blogs", #"{"name": "news"}"#)
            let post = try await client.createdID("posts", #"{"title": "a", "blog": \#(blog)}"#)
            _ = try await client.create("pages", #"{"title": "b", "blog": \#(blog), "previous": \#(post)}"#)
            _ = try await client.create("comments", #"{"text": "c", "post": \#(post)}"#)

            let clone = try await client.post("/blogs/\(blog)/clone", #"{"exclude": ["posts"]}"#)
            #expect(clone.status == 201, "\(clone.text)")
            let created = try #require(try clone.json()["created"] as? [String: Any])
            #expect(created.keys.sorted() == ["Blog"], "the posts and pages (and their comments) are left out: \(created)")

            let qualified = try await client.post("/blogs/\(blog)/clone", #"{"exclude": ["Content.comments"]}"#)
            #expect(qualified.status == 422, "an abstract entity is not where a field is excluded: \(qualified.text)")
            let everywhere = try await client.post("/blogs/\(blog)/clone", #"{"exclude": ["Page.previous", "Post.comments"]}"#)
            #expect(everywhere.status == 201, "\(everywhere.text)")
            let copied = try #require(try everywhere.json()["created"] as? [String: Any])
            #expect(F.int(copied["Post"]) == 1 && F.int(copied["Page"]) == 1 && copied["Comment"] == nil, "\(copied)")

            // A required field is not excluded by its qualified name either (the bare one: the other suite).
            let required = try await client.post("/posts/\(post)/clone", #"{"exclude": ["Comment.post"]}"#)
            #expect(required.status == 422 && required.text.contains("required relationship"), "\(required.text)")
        }
    }

    @Test("a graph of a hierarchy travels: exported, imported elsewhere, each object as its own entity", arguments: StoreBackendKind.available)
    func aGraphTravels(_ backend: StoreBackendKind) async throws {
        let model = try HierarchyRelationshipServiceTests.model()
        var document = ""
        var source: [String: Int] = [:]
        try await TestService.withService(backend: backend, modelText: model) { service in
            let client = service.client
            let blog = try await client.createdID("blogs", #"{"name": "news"}"#)
            let post = try await client.createdID("posts", #"{"title": "a", "blog": \#(blog)}"#)
            let page = try await client.createdID("pages", #"{"title": "b", "slug": "b", "blog": \#(blog), "previous": \#(post)}"#)
            _ = try await client.create("comments", #"{"text": "on a post", "post": \#(post)}"#)
            _ = try await client.create("comments", #"{"text": "on a page", "post": \#(page)}"#)
            source = ["blog": blog, "post": post, "page": page]
            let exported = try await client.get("/blogs/\(blog)/export")
            #expect(exported.status == 200, "\(exported.text.prefix(300))")
            document = exported.text
        }
        // Into an empty store of the same model: new ids, the same graph.
        try await TestService.withService(backend: backend, modelText: model) { service in
            let client = service.client
            _ = try await client.create("folders", #"{"name": "takes ids first"}"#)
            let imported = try await client.importGraph("blogs", document)
            #expect(imported.status == 201, "\(imported.text)")
            let created = F.counts(try imported.json()["created"])
            #expect(created == ["Blog": 1, "Post": 1, "Page": 1, "Comment": 2], "\(imported.text)")
            let blog = try imported.cloneID()
            let copy = try await client.get("/blogs/\(blog)").json()
            let posts = Set(F.ints(copy["posts"]) ?? [])
            #expect(posts.count == 2, "\(copy)")
            let pages = try #require(try await client.get("/pages?limit=10").json()["data"] as? [[String: Any]])
            #expect(pages.count == 1 && posts.contains(F.int(pages[0]["_id"]) ?? 0), "\(pages)")
            let previous = try #require(F.int(pages[0]["previous"]))
            #expect(posts.contains(previous) && previous != source["post"], "re-pointed into the import: \(pages)")
            let onPage = try #require(try await client.get("/comments?limit=10").json()["data"] as? [[String: Any]])
            let byText = Dictionary(uniqueKeysWithValues: onPage.map { ($0["text"] as? String ?? "", F.int($0["post"]) ?? 0) })
            #expect(byText["on a page"] == F.int(pages[0]["_id"]) && byText["on a post"] == previous, "\(onPage)")
            let read = try await client.get("/baseposts/\(previous)")
            let readEntity = try read.json()["_entity"] as? String
            #expect(read.status == 200 && readEntity == "Post")
        }
    }
}
