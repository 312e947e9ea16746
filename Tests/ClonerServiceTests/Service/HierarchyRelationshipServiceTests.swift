import ClonerService
import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// Relationships into an inheritance hierarchy, served on each store
/// (docs/architecture.md#relationships-into-a-hierarchy): a field pointing at an abstract entity
/// holds `_id`s of its concrete entities, read back on both ends; ids are unique across a
/// hierarchy; an abstract entity's collection lists and reads them all; a clone copies each object
/// as its own entity and re-points what points inside it.
@Suite("Service: relationships into an inheritance hierarchy")
struct HierarchyRelationshipServiceTests {
    typealias F = EndToEndFixture

    /// Tests/Fixtures/Hierarchy/Publishing.json: posts and pages under abstract `BasePost` and
    /// `Content`; blogs (ordered `posts` with its inverse, ordered `featured` without), tags (an
    /// ordered many-to-many) and comments pointing at `BasePost`; folders and smart folders nesting
    /// through their abstract `Collection`.
    static func model() throws -> String {
        try String(contentsOf: repositoryRoot.appendingPathComponent("Tests/Fixtures/Hierarchy/Publishing.json"), encoding: .utf8)
    }

    static func data(_ response: ClientResponse) throws -> [[String: Any]] {
        try #require(try response.json()["data"] as? [[String: Any]], "\(response.text)")
    }

    @Test("fields to an abstract parent are written and read on both ends", arguments: StoreBackendKind.available)
    func fieldsToAnAbstractParent(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: try Self.model()) { service in
            let client = service.client
            let blog = try await client.createdID("blogs", #"{"name": "news"}"#)
            let wrong = try await client.post("/comments", #"{"text": "x", "post": \#(blog)}"#)
            #expect(wrong.status == 422 && wrong.text.contains("Comment.post: no BasePost with _id \(blog)"), "\(wrong.text)")
            #expect(wrong.text.contains("a Blog has that _id"), "both entities named: \(wrong.text)")
            let post = try await client.createdID("posts", #"{"title": "hello", "body": "b", "blog": \#(blog)}"#)
            let page = try await client.create("pages", #"{"title": "about", "slug": "about", "blog": \#(blog), "previous": \#(post)}"#)
            let pageID = try #require(F.int(page["_id"]))
            #expect(page["_entity"] as? String == "Page" && F.int(page["previous"]) == post && F.int(page["blog"]) == blog, "\(page)")
            #expect(pageID != post, "a post and a page never share an _id")

            let onPage = try await client.create("comments", #"{"text": "nice", "post": \#(pageID)}"#)
            #expect(F.int(onPage["post"]) == pageID && onPage.keys.allSatisfy { !$0.contains("__") }, "one field, no parts: \(onPage)")
            let onPost = try await client.createdID("comments", #"{"text": "first", "post": \#(post)}"#)
            let nested = try await client.create("comments", #"{"text": "new", "post": {"_entity": "Page", "title": "made here"}}"#)
            let madePage = try #require(F.int(nested["post"]))
            #expect(try await client.get("/pages/\(madePage)").json()["title"] as? String == "made here")

            let readPage = try await client.get("/pages/\(pageID)").json()
            #expect(F.ints(readPage["comments"]) == [try #require(F.int(onPage["_id"]))], "\(readPage)")
            #expect(F.ints(try await client.get("/posts/\(post)").json()["comments"]) == [onPost])
            #expect(F.ints(try await client.get("/blogs/\(blog)").json()["posts"]) == [post, pageID], "posts and pages in one list, as they joined it")

            let featured = try await client.patch("/blogs/\(blog)", #"{"featured": [\#(pageID), \#(post), \#(madePage)]}"#)
            #expect(featured.status == 200, "\(featured.text)")
            #expect(Set(F.ints(try featured.json()["featured"]) ?? []) == [pageID, post, madePage])
            #expect(F.ints(try await client.get("/blogs/\(blog)").json()["featured"]) == [pageID, post, madePage], "one order over both entities")

            let moved = try await client.patch("/comments/\(onPost)", #"{"post": \#(pageID)}"#)
            let movedPost = F.int(try moved.json()["post"])
            #expect(moved.status == 200 && movedPost == pageID, "\(moved.text)")
            #expect(F.ints(try await client.get("/posts/\(post)").json()["comments"]) == [], "the other part is emptied")
            #expect(F.ints(try await client.get("/pages/\(pageID)").json()["comments"])?.count == 2)
            let onThePage = try Self.data(try await client.get("/comments?post=\(pageID)")).compactMap { F.int($0["_id"]) }
            #expect(onThePage.sorted() == [try #require(F.int(onPage["_id"])), onPost].sorted(), "a to-one into the hierarchy filters")
            #expect(try Self.data(try await client.get("/comments?where.post=\(post)")).isEmpty)
            let following = try Self.data(try await client.get("/pages?previous=\(post)")).compactMap { F.int($0["_id"]) }
            #expect(following == [pageID])
            #expect(try Self.data(try await client.get("/posts?previous=null")).count == 1)
            #expect(try await client.get("/comments?post=x").status == 422)

            let missing = try await client.post("/comments", #"{"text": "x"}"#)
            #expect(missing.status == 422 && missing.text.contains("required relationship to BasePost is missing"), "\(missing.text)")
            let unnamed = try await client.post("/comments", #"{"post": {"title": "t"}}"#)
            #expect(unnamed.status == 422 && unnamed.text.contains(#"\"_entity\": one of Post, Page"#), "\(unnamed.text)")
            let part = try await client.post("/comments", #"{"post__Post": \#(post)}"#)
            #expect(part.status == 422 && part.text.contains("unknown field"), "a part is the store's, not a field: \(part.text)")
            let listed = try await client.post("/blogs", #"{"name": "x", "posts": [\#(post), 999999]}"#)
            #expect(listed.status == 422 && listed.text.contains("posts[1]"), "\(listed.text)")

            let ofTheBlog = try Self.data(try await client.get("/baseposts?blog=\(blog)")).compactMap { F.int($0["_id"]) }
            #expect(ofTheBlog == [post, pageID], "a to-one every concrete entity stores filters the abstract collection")
            let filtered = try Self.data(try await client.get("/pages?where.slug=about"))
            #expect(filtered.compactMap { F.int($0["_id"]) } == [pageID])
            #expect(try await client.delete("/pages/\(pageID)").status == 204)
            #expect(try await client.get("/comments/\(onPost)").status == 404, "the page's comments went with it (cascade)")
            #expect(F.ints(try await client.get("/blogs/\(blog)").json()["posts"]) == [post])
        }
    }

    @Test("a self-reference through the abstract parent nests either concrete entity", arguments: StoreBackendKind.available)
    func collectionsNestThroughTheirParent(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: try Self.model()) { service in
            let client = service.client
            let root = try await client.createdID("folders", #"{"name": "root"}"#)
            let smart = try await client.createdID("smartfolders", #"{"name": "recent", "query": "q", "parent": \#(root)}"#)
            let leaf = try await client.create(
                "folders", #"{"name": "leaf", "parent": \#(smart), "subcollections": [{"_entity": "SmartFolder", "name": "deep"}]}"#)
            let leafID = try #require(F.int(leaf["_id"]))
            #expect(Set([root, smart, leafID]).count == 3)
            #expect(F.ints(try await client.get("/folders/\(root)").json()["subcollections"]) == [smart])
            let readSmart = try await client.get("/smartfolders/\(smart)").json()
            #expect(F.int(readSmart["parent"]) == root && F.ints(readSmart["subcollections"]) == [leafID], "\(readSmart)")
            let deep = try #require(F.ints(leaf["subcollections"])?.first)
            #expect(F.int(try await client.get("/collections/\(deep)").json()["parent"]) == leafID)

            let all = try Self.data(try await client.get("/collections"))
            #expect(all.compactMap { $0["_entity"] as? String } == ["Folder", "SmartFolder", "Folder", "SmartFolder"], "\(all)")
            #expect(try await client.delete("/folders/\(root)").status == 204)
            #expect(try await client.get("/collections?count=true").json()["count"] as? Int == 0, "the cascade went down through both entities")
        }
    }

    @Test("an abstract collection lists and reads every concrete entity's objects", arguments: StoreBackendKind.available)
    func abstractCollectionsRead(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: try Self.model()) { service in
            let client = service.client
            var ids: [Int] = []
            for index in 0..<5 {
                let collection = index % 2 == 0 ? "posts" : "pages"
                ids.append(try await client.createdID(collection, #"{"title": "t\#(index % 3)", "published": \#(index < 3)}"#))
            }
            let first = try await client.get("/baseposts?limit=2&count=true")
            let page1 = try Self.data(first)
            #expect(page1.compactMap { F.int($0["_id"]) } == Array(ids.prefix(2)) && page1.map { $0["_entity"] as? String } == ["Post", "Page"])
            #expect(try first.json()["count"] as? Int == 5)
            let next = try #require(try first.json()["next"] as? String)
            let second = try await client.get(next)
            #expect(try Self.data(second).compactMap { F.int($0["_id"]) } == Array(ids[2..<4]), "\(second.text)")
            let published = try Self.data(try await client.get("/contents?published=true&title=t0"))
            #expect(published.compactMap { F.int($0["_id"]) } == [ids[0]], "filters on the attributes all share")

            let one = try await client.get("/baseposts/\(ids[1])")
            let oneEntity = try one.json()["_entity"] as? String
            #expect(one.status == 200 && oneEntity == "Page" && one.header("Content-Location") == "/pages/\(ids[1])")
            #expect(try await client.get("/baseposts/999999").status == 404)
            #expect(try await client.get("/baseposts?slug=x").status == 422, "slug is no attribute every BasePost has")

            let create = try await client.post("/baseposts", #"{"title": "x"}"#)
            #expect(create.status == 405 && create.text.contains("/posts, /pages"), "\(create.text)")
            #expect(try await client.delete("/baseposts/\(ids[0])").status == 405)
            #expect(try await client.post("/baseposts/\(ids[0])/clone", "{}").status == 405)

            let openAPI = try await client.get("/openapi.yaml")
            #expect(openAPI.status == 200 && openAPI.text.contains(#""featured""#) && !openAPI.text.contains(#""featured__Page""#), "one field per declaration")
            #expect(openAPI.text.contains(#""/baseposts/{id}""#) && openAPI.text.contains("BasePostRecord"), "the abstract collection is described")
            let listLine = openAPI.text.split(separator: "\n").first { $0.hasPrefix(#"  "/baseposts":"#) } ?? ""
            #expect(listLine.contains(#""name":"blog""#) && listLine.contains(#""name":"title""#), "filters on what all share: \(listLine.prefix(300))")
            try OpenAPIValidator.validate(openAPI.body)
        }
    }

    @Test("a clone copies each object as its own entity and re-points what points inside", arguments: StoreBackendKind.available)
    func clonesRepointWhateverTheDeclaredDestination(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: try Self.model()) { service in
            let client = service.client
            let other = try await client.createdID("blogs", #"{"name": "other"}"#)
            let outside = try await client.createdID("posts", #"{"title": "elsewhere", "blog": \#(other)}"#)
            let blog = try await client.createdID("blogs", #"{"name": "news"}"#)
            let post = try await client.createdID("posts", #"{"title": "p", "blog": \#(blog), "previous": \#(outside), "comments": [{"text": "c1"}]}"#)
            let page = try await client.createdID("pages", #"{"title": "g", "blog": \#(blog), "previous": \#(post), "comments": [{"text": "c2"}]}"#)
            #expect(try await client.patch("/blogs/\(blog)", #"{"featured": [\#(page)]}"#).status == 200)

            let dry = try await client.post("/blogs/\(blog)/clone", #"{"dryRun": true}"#)
            let cloned = try await client.post("/blogs/\(blog)/clone", "{}")
            #expect(cloned.status == 201, "\(cloned.text)")
            let created = F.counts(try cloned.json()["created"])
            #expect(created == ["Blog": 1, "Post": 1, "Page": 1, "Comment": 2], "\(cloned.text)")
            #expect(F.counts(try dry.json()["created"]) == created, "the dry run agrees: \(dry.text)")

            let copyID = try cloned.cloneID()
            let copy = try await client.get("/blogs/\(copyID)").json()
            let posts = try #require(F.ints(copy["posts"]))
            #expect(posts.count == 2 && Set(posts).isDisjoint(with: [post, page]), "\(copy)")
            var copies: [String: [String: Any]] = [:]
            for id in posts {
                let object = try await client.get("/baseposts/\(id)").json()
                copies[object["_entity"] as? String ?? ""] = object
            }
            let newPost = try #require(copies["Post"], "each copied as its own entity: \(copies)")
            let newPage = try #require(copies["Page"], "each copied as its own entity: \(copies)")
            let newPostID = try #require(F.int(newPost["_id"])), newPageID = try #require(F.int(newPage["_id"]))
            #expect(F.ints(copy["featured"]) == [newPageID], "a shared reference inside the clone points at the copy")
            #expect(F.int(newPage["previous"]) == newPostID, "re-pointed through the abstract destination: \(newPage)")
            #expect(F.int(newPost["previous"]) == outside, "a reference out of the clone stays: \(newPost)")
            let copiedComment = try #require(F.ints(newPage["comments"])?.first)
            #expect(F.int(try await client.get("/comments/\(copiedComment)").json()["post"]) == newPageID, "the copied comment points at the copied page")

            let document = try await client.get("/blogs/\(blog)/export")
            #expect(document.status == 200, "\(document.text.prefix(300))")
            let imported = try await client.importGraph("blogs", document.text, query: "createMissing=true")
            #expect(imported.status == 201, "\(imported.text)")
            let importedCounts = F.counts(try imported.json()["created"])
            #expect(importedCounts["Blog"] == 1 && importedCounts["Page"] == 1 && importedCounts["Comment"] == 2, "\(imported.text)")

            let withoutPrevious = try await client.post("/pages/\(page)/clone", #"{"exclude": ["previous"]}"#)
            let pageCopy = try withoutPrevious.cloneID()
            let readCopy = try await client.get("/pages/\(pageCopy)").json()
            #expect(readCopy.keys.contains("previous") && F.int(readCopy["previous"]) == nil, "excluded by its declared name: \(readCopy)")
            #expect(try await client.post("/comments/1/clone", #"{"exclude": ["post"]}"#).status == 422, "a required to-one cannot be excluded")

            let again = try await client.post("/posts/\(post)/clone", "{}")
            #expect(again.status == 201, "\(again.text)")
            let postIDs = try Self.data(try await client.get("/posts?limit=100")).compactMap { F.int($0["_id"]) }
            let pageIDs = try Self.data(try await client.get("/pages?limit=100")).compactMap { F.int($0["_id"]) }
            #expect(
                postIDs.count >= 5 && pageIDs.count == 4 && Set(postIDs).isDisjoint(with: pageIDs),
                "ids unique across the hierarchy after creates, clones and an import: \(postIDs) \(pageIDs)")
            let all = try await client.get("/baseposts?count=true&limit=100")
            #expect(try all.json()["count"] as? Int == postIDs.count + pageIDs.count)
            #expect(try Self.data(all).compactMap { F.int($0["_id"]) } == (postIDs + pageIDs).sorted(), "one _id order over both")
        }
    }

    @Test("writers side by side never give a post and a page one _id", arguments: StoreBackendKind.available)
    func concurrentWritersShareOneIDSpace(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: try Self.model()) { service in
            let client = service.client
            let source = try await client.createdID("posts", #"{"title": "source", "comments": [{"text": "c"}]}"#)
            let ids = try await withThrowingTaskGroup(of: [Int].self) { group in
                for writer in 0..<8 {
                    group.addTask {
                        var made: [Int] = []
                        for round in 0..<4 {
                            let answer =
                                round == 3
                                ? try await client.post("/posts/\(source)/clone", "{}")
                                : try await client.post(writer % 2 == 0 ? "/posts" : "/pages", #"{"title": "w\#(writer)"}"#)
                            guard answer.status == 201 else { throw ClientError("\(answer.status): \(answer.text)") }
                            let json = try answer.json()
                            made.append(try #require(F.int((json["clone"] as? [String: Any])?["id"] ?? json["_id"])))
                        }
                        return made
                    }
                }
                var all: [Int] = []
                for try await made in group { all += made }
                return all
            }
            #expect(ids.count == 32 && Set(ids).count == 32, "every create and clone took an id of its own: \(ids.sorted())")
            let listed = try Self.data(try await client.get("/baseposts?limit=100")).compactMap { F.int($0["_id"]) }
            #expect(listed.count == 33 && Set(listed).count == 33)
        }
    }

    /// The same model as Xcode saves it (Tests/Fixtures/CoreData/Publishing.xcdatamodeld).
    @Test("the Core Data model with relationships into its hierarchies, served", arguments: StoreBackendKind.available)
    func aCoreDataModelIsServed(_ backend: StoreBackendKind) async throws {
        let bundle = repositoryRoot.appendingPathComponent("Tests/Fixtures/CoreData/Publishing.xcdatamodeld").path
        try await TestService.withService(backend: backend, overrides: .init(modelPath: bundle)) { service in
            let client = service.client
            let blog = try await client.createdID("blogs", #"{"name": "news", "posts": [{"_entity": "Page", "title": "about"}]}"#)
            let page = try #require(F.ints(try await client.get("/blogs/\(blog)").json()["posts"])?.first)
            let comment = try await client.create("comments", #"{"text": "hi", "post": \#(page)}"#)
            #expect(F.int(comment["post"]) == page, "\(comment)")
            let read = try await client.get("/contents/\(page)").json()
            #expect(read["_entity"] as? String == "Page" && F.int(read["blog"]) == blog && F.ints(read["comments"]) == [F.int(comment["_id"]) ?? 0])
            let folder = try await client.createdID("folders", #"{"name": "f", "subcollections": [{"_entity": "SmartFolder"}]}"#)
            let nested = try Self.data(try await client.get("/smartfolders?parent=\(folder)"))
            #expect(nested.count == 1 && F.int(nested[0]["parent"]) == folder, "\(nested)")
        }
    }

    /// The titles of `ids`, read through the abstract collection (one request each: few objects).
    static func titles(_ ids: [Int], _ client: ServiceClient) async throws -> [String] {
        var titles: [String] = []
        for id in ids { titles.append(try await client.get("/baseposts/\(id)").json()["title"] as? String ?? "?") }
        return titles
    }

    @Test("an ordered list into a hierarchy keeps one order over its concrete entities", arguments: StoreBackendKind.available)
    func orderedListsKeepOneOrderAcrossEntities(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: try Self.model()) { service in
            let client = service.client
            var id: [String: Int] = [:]
            for (collection, title) in [("posts", "p1"), ("pages", "g1"), ("posts", "p2"), ("pages", "g2")] {
                let made = try await client.createdID(collection, #"{"title": "\#(title)"}"#)
                id[title] = made
            }
            let (p1, g1, p2, g2) = (id["p1"]!, id["g1"]!, id["p2"]!, id["g2"]!)
            // Neither `_id` order nor one concrete entity after the other.
            let created = try await client.create("blogs", #"{"name": "b", "posts": [\#(g2), \#(p1), {"_entity": "Page", "title": "new"}, \#(p2)]}"#)
            let blog = try #require(F.int(created["_id"]))
            let posts = try #require(F.ints(created["posts"]), "\(created)")
            let titles = try await Self.titles(posts, client)
            #expect(titles == ["g2", "p1", "new", "p2"], "as the body listed them: \(posts)")
            #expect(F.ints(try await client.get("/blogs/\(blog)").json()["posts"]) == posts, "read back in one order")
            let made = posts[2]

            let patched = try await client.patch("/blogs/\(blog)", #"{"posts": [\#(p2), \#(g1), \#(p1), \#(g2)]}"#)
            #expect(try patched.status == 200 && F.ints(patched.json()["posts"]) == [p2, g1, p1, g2], "\(patched.text)")
            #expect(try await client.get("/pages/\(made)").json()["blog"] is NSNull, "the page left out left the list")
            // Each entity's own list stays [p2, p1] and [g1, g2]: only their places among each other change.
            let interleaved = try await client.patch("/blogs/\(blog)", #"{"posts": [\#(g1), \#(p2), \#(g2), \#(p1)]}"#)
            #expect(F.ints(try interleaved.json()["posts"]) == [g1, p2, g2, p1], "\(interleaved.text)")
            let version = try #require(F.int(try interleaved.json()["_version"]))
            let same = try await client.patch("/blogs/\(blog)", #"{"posts": [\#(g1), \#(p2), \#(g2), \#(p1)]}"#)
            #expect(F.int(try same.json()["_version"]) == version, "the same list again changes nothing: \(same.text)")

            // A new object nested in a PATCH takes its place among the others.
            let nested = try await client.patch("/blogs/\(blog)", #"{"posts": [\#(g1), {"_entity": "Post", "title": "nested"}, \#(g2), \#(p2)]}"#)
            let nestedTitles = try await Self.titles(F.ints(try nested.json()["posts"]) ?? [], client)
            #expect(nestedTitles == ["g1", "nested", "g2", "p2"], "\(nested.text)")

            // Joining from the to-one side goes to the end of the whole list, after every entity's objects.
            #expect(try await client.patch("/blogs/\(blog)", #"{"posts": [\#(g1), \#(p1), \#(p2)]}"#).status == 200)
            let joined = try await client.createdID("pages", #"{"title": "last", "blog": \#(blog)}"#)
            #expect(F.ints(try await client.get("/blogs/\(blog)").json()["posts"]) == [g1, p1, p2, joined])
            #expect(try await client.patch("/pages/\(g2)", #"{"blog": \#(blog)}"#).status == 200)
            #expect(F.ints(try await client.get("/blogs/\(blog)").json()["posts"]) == [g1, p1, p2, joined, g2])
            #expect(try await client.delete("/posts/\(p1)").status == 204)
            #expect(F.ints(try await client.get("/blogs/\(blog)").json()["posts"]) == [g1, p2, joined, g2], "a deleted member leaves the others")
            // A post imported into the blog (found by its name, the natural key) joins the end of the whole list.
            let postDocument = try await client.get("/posts/\(p2)/export")
            let postImport = try await client.importGraph("posts", postDocument.text)
            let imported = try postImport.cloneID()
            let order = [g1, p2, joined, g2, imported]
            #expect(F.ints(try await client.get("/blogs/\(blog)").json()["posts"]) == order)

            // A list without an inverse (a join table per entity) keeps one order too.
            let featured = try await client.patch("/blogs/\(blog)", #"{"featured": [\#(g2), \#(p2), \#(g1)]}"#)
            #expect(F.ints(try featured.json()["featured"]) == [g2, p2, g1], "\(featured.text)")

            let dry = try await client.post("/blogs/\(blog)/clone", #"{"dryRun": true}"#)
            let cloned = try await client.post("/blogs/\(blog)/clone", "{}")
            #expect(try cloned.status == 201 && F.counts(dry.json()["created"]) == F.counts(cloned.json()["created"]), "\(cloned.text)")
            let copyID = try cloned.cloneID()
            let copy = try await client.get("/blogs/\(copyID)").json()
            let copied = try #require(F.ints(copy["posts"]))
            let copiedTitles = try await Self.titles(copied, client)
            #expect(Set(copied).isDisjoint(with: order) && copiedTitles == ["g1", "p2", "last", "g2", "p2"], "\(copy)")
            let featuredTitles = try await Self.titles(F.ints(copy["featured"]) ?? [], client)
            #expect(featuredTitles == ["g2", "p2", "g1"], "\(copy)")
            #expect(F.ints(try await client.get("/blogs/\(blog)").json()["posts"]) == order, "the source is left as it was")

            // A post cloned on its own joins the end of its blog's list (the blog is shared).
            let alone = try await client.post("/posts/\(p2)/clone", "{}")
            let postCopy = try alone.cloneID()
            #expect(F.ints(try await client.get("/blogs/\(blog)").json()["posts"]) == order + [postCopy])

            // An export carries each part's places in the declared list; an import keeps the order.
            let document = try await client.get("/blogs/\(blog)/export")
            #expect(document.status == 200 && document.text.contains(#""places":{"#), "\(document.text.prefix(600))")
            let blogImport = try await client.importGraph("blogs", document.text)
            let importedID = try blogImport.cloneID()
            let arrived = try await client.get("/blogs/\(importedID)").json()
            let arrivedTitles = try await Self.titles(F.ints(arrived["posts"]) ?? [], client)
            #expect(arrivedTitles == ["g1", "p2", "last", "g2", "p2", "p2"], "\(arrived)")
            let arrivedFeatured = try await Self.titles(F.ints(arrived["featured"]) ?? [], client)
            #expect(arrivedFeatured == ["g2", "p2", "g1"], "\(arrived)")
            // The same member read the general way (an escape in its name) gives the same order.
            let escaped = try await client.importGraph("blogs", document.text.replacingOccurrences(of: #""places":"#, with: #""pl\u0061ces":"#))
            let escapedID = try escaped.cloneID()
            let escapedTitles = try await Self.titles(F.ints(try await client.get("/blogs/\(escapedID)").json()["posts"]) ?? [], client)
            #expect(escapedTitles == arrivedTitles)
            let miscounted = document.text.replacingOccurrences(of: #""places":{"posts__Post":["#, with: #""places":{"posts__Post":[9,"#)
            let refused = try await client.importGraph("blogs", miscounted)
            #expect(refused.status == 422 && refused.text.contains("places.posts__Post"), "\(refused.text)")
        }
    }

    @Test("joining an ordered many-to-many into a hierarchy from the other side ends the whole list", arguments: StoreBackendKind.available)
    func manyToManyJoinsEndTheWholeList(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: try Self.model()) { service in
            let client = service.client
            var id: [String: Int] = [:]
            for (collection, title) in [("posts", "p1"), ("pages", "g1"), ("pages", "g2"), ("posts", "p2"), ("posts", "p3"), ("posts", "p4")] {
                let made = try await client.createdID(collection, #"{"title": "\#(title)"}"#)
                id[title] = made
            }
            let (p1, g1, g2, p2, p3, p4) = (id["p1"]!, id["g1"]!, id["g2"]!, id["p2"]!, id["p3"]!, id["p4"]!)
            let tag = try await client.createdID("tags", #"{"label": "swift", "posts": [\#(p1), \#(g1), \#(g2)]}"#)
            func posts() async throws -> [Int] { F.ints(try await client.get("/tags/\(tag)").json()["posts"]) ?? [] }
            // From a post's side: after the pages too, not after the posts alone.
            for post in [p2, p3] { #expect(try await client.patch("/posts/\(post)", #"{"tags": [\#(tag)]}"#).status == 200) }
            #expect(try await posts() == [p1, g1, g2, p2, p3])
            // A page cloned alone shares its tags: the copy joins the end of the whole list.
            let cloned = try await client.post("/pages/\(g1)/clone", "{}")
            let copy = try cloned.cloneID()
            #expect(try await posts() == [p1, g1, g2, p2, p3, copy])
            #expect(try await client.patch("/posts/\(p4)", #"{"tags": [\#(tag)]}"#).status == 200)
            // A page imported alone finds the tag by its label and joins the end of the whole list too.
            let document = try await client.get("/pages/\(g2)/export")
            let imported = try await client.importGraph("pages", document.text)
            let arrived = try imported.cloneID()
            #expect(try await posts() == [p1, g1, g2, p2, p3, copy, p4, arrived])
        }
    }

    @Test("a long list into a hierarchy counts its parts together", arguments: StoreBackendKind.available)
    func longListsCountTheirPartsTogether(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: try Self.model()) { service in
            let client = service.client
            let objects = (0..<1_100).map { $0 % 2 == 0 ? #"{"_entity": "Post"}"# : #"{"_entity": "Page"}"# }
            let blog = try await client.create("blogs", #"{"name": "big", "posts": [\#(objects.joined(separator: ","))]}"#)
            #expect(F.ints(blog["posts"])?.count == 1_000, "the first 1000 inline")
            let lists = try #require(blog["_lists"] as? [String: Any], "\(blog.keys.sorted())")
            #expect(lists.keys.sorted() == ["posts"], "one entry for the field, none per part: \(lists)")
            let posts = try #require(lists["posts"] as? [String: Any])
            #expect(F.int(posts["count"]) == 1_100 && posts["all"] is NSNull, "\(posts)")
        }
    }
}
