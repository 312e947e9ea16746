import ClonerService
import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// A model whose concrete entities inherit from abstract ones, served on each store: every leaf
/// has its ancestors' properties and clone rules as its own — created, read, listed, filtered,
/// changed, cloned (dry run agreeing), exported and imported, deleted — and a version that adds
/// an attribute to an abstract parent, or a new sub-entity, migrates every leaf.
@Suite("Service: entities that inherit from abstract entities")
struct EntityInheritanceServiceTests {
    typealias F = EndToEndFixture

    /// An abstract root (an id made anew on clone, a creation date), an abstract middle (a title,
    /// shared tags), two leaves: a note owning ordered items, a page with a URL.
    static func model(middleExtra: String = "", extraLeaf: String = "") -> String {
        """
        { "entities": [
          { "name": "Record", "abstract": true,
            "attributes": [
              { "name": "uuid", "type": "uuid", "unique": true, "userInfo": { "rebuild": "uuid" } },
              { "name": "createdAt", "type": "date", "optional": true, "userInfo": { "rebuild": "now" } } ] },
          { "name": "Document", "parent": "Record", "abstract": true,
            "attributes": [ { "name": "title", "type": "string", "optional": true }\(middleExtra) ],
            "relationships": [ { "name": "tags", "destination": "Tag", "toMany": true, "userInfo": { "clone": "share" } } ] },
          { "name": "Note", "parent": "Document",
            "attributes": [ { "name": "body", "type": "string", "optional": true } ],
            "relationships": [ { "name": "items", "destination": "Item", "toMany": true, "ordered": true, "inverse": "note", "deleteRule": "cascade" } ] },
          { "name": "Page", "parent": "Document", "attributes": [ { "name": "url", "type": "string", "optional": true } ] },\(extraLeaf)
          { "name": "Tag", "attributes": [ { "name": "label", "type": "string", "optional": true } ] },
          { "name": "Item", "attributes": [ { "name": "text", "type": "string", "optional": true } ],
            "relationships": [ { "name": "note", "destination": "Note", "inverse": "items" } ] } ] }
        """
    }

    static let firstUUID = "6F1C2B9E-3D4A-4E5F-8A7B-9C0D1E2F3A4B"

    @Test("each leaf has its ancestors' properties and rules", arguments: StoreBackendKind.available)
    func leavesServeTheirInheritedProperties(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: Self.model()) { service in
            let client = service.client
            let model = try await client.get("/model").json()
            let names = try #require(model["entities"] as? [[String: Any]]).compactMap { $0["name"] as? String }
            #expect(names == ["Record", "Document", "Note", "Page", "Tag", "Item"], "abstract entities first, with their parents")
            #expect(try await client.get("/records").status == 200, "an abstract entity's collection only reads")
            #expect(try await client.post("/records", "{}").status == 405)

            let tag = try await client.createdID("tags", #"{"label": "red"}"#)
            let note = try await client.create(
                "notes",
                #"{"uuid": "\#(Self.firstUUID)", "title": "plan", "body": "b", "tags": [\#(tag)], "items": [{"text": "one"}, {"text": "two"}]}"#)
            let noteID = try #require(F.int(note["_id"]))
            #expect(note["_entity"] as? String == "Note" && note["title"] as? String == "plan" && F.ints(note["tags"]) == [tag], "\(note)")
            let page = try await client.create("pages", #"{"uuid": "\#(UUID().uuidString)", "title": "home", "url": "/", "tags": [\#(tag)]}"#)
            let pageID = try #require(F.int(page["_id"]))
            #expect(page["_entity"] as? String == "Page" && page["url"] as? String == "/", "\(page)")

            let titled = try #require(try await client.get("/pages?where.title=home").json()["data"] as? [[String: Any]])
            #expect(titled.compactMap { F.int($0["_id"]) } == [pageID], "an inherited attribute filters")
            #expect(try await client.patch("/pages/\(pageID)", #"{"title": "start"}"#).status == 200)
            #expect(try await client.get("/pages/\(pageID)").json()["title"] as? String == "start")
            let duplicate = try await client.post("/pages", #"{"uuid": "\#(Self.firstUUID)"}"#)
            #expect(duplicate.status == 201, "uniqueness is per leaf table: a Page may repeat a Note's uuid (\(duplicate.text))")
            let clash = try await client.post("/notes", #"{"uuid": "\#(Self.firstUUID)"}"#)
            #expect(clash.status == 409, "the inherited unique flag holds within the leaf: \(clash.text)")

            let dry = try await client.post("/notes/\(noteID)/clone", #"{"dryRun": true}"#)
            let cloned = try await client.post("/notes/\(noteID)/clone", "{}")
            #expect(cloned.status == 201, "\(cloned.text)")
            let dryCreated = F.counts(try dry.json()["created"]), created = F.counts(try cloned.json()["created"])
            #expect(dryCreated == ["Note": 1, "Item": 2] && created == dryCreated, "the dry run agrees: \(dry.text)")
            #expect(F.counts(try cloned.json()["linked"]) == ["Tag": 1])
            let cloneID = try cloned.cloneID()
            let clone = try await client.get("/notes/\(cloneID)").json()
            #expect(clone["title"] as? String == "plan" && F.ints(clone["tags"]) == [tag], "\(clone)")
            #expect(clone["uuid"] as? String != Self.firstUUID && clone["uuid"] != nil, "the root's rebuild rule applies to the leaf: \(clone)")
            #expect(F.ints(clone["items"])?.count == 2)

            let document = try await client.get("/pages/\(pageID)/export")
            #expect(document.status == 200, "\(document.text.prefix(300))")
            let imported = try await client.importGraph("pages", document.text, query: "createMissing=true")
            #expect(imported.status == 201, "\(imported.text)")
            let importedID = try imported.cloneID()
            let copy = try await client.get("/pages/\(importedID)").json()
            #expect(copy["title"] as? String == "start" && copy["url"] as? String == "/" && F.ints(copy["tags"])?.count == 1, "\(copy)")

            #expect(try await client.delete("/notes/\(noteID)").status == 204)
            let items = try #require(try await client.get("/items?limit=10").json()["data"] as? [[String: Any]])
            #expect(items.count == 2, "the note's items went with it; its clone's stay")
            let openAPI = try await client.get("/openapi.yaml")
            #expect(openAPI.status == 200 && openAPI.text.contains("/pages/{id}") && openAPI.text.contains(#""/records/{id}""#))
            #expect(!openAPI.text.contains(#""/records/{id}/clone""#), "an abstract collection only reads")
            try OpenAPIValidator.validate(openAPI.body)
        }
    }

    /// The same as Xcode saves it (Tests/Fixtures/CoreData/Library.xcdatamodeld): books and films
    /// under an abstract work under an abstract record, the rules in the record's User Info.
    @Test("a Core Data model with abstract parents, served", arguments: StoreBackendKind.available)
    func aCoreDataHierarchyIsServed(_ backend: StoreBackendKind) async throws {
        let bundle = repositoryRoot.appendingPathComponent("Tests/Fixtures/CoreData/Library.xcdatamodeld").path
        try await TestService.withService(backend: backend, overrides: .init(modelPath: bundle)) { service in
            let client = service.client
            let shelf = try await client.createdID("shelfs", #"{"label": "classics"}"#)
            let uuid = UUID().uuidString
            let book = try await client.create(
                "books", #"{"uuid": "\#(uuid)", "title": "Emma", "pages": 474, "shelves": [\#(shelf)], "chapters": [{"heading": "I"}, {"heading": "II"}]}"#)
            let bookID = try #require(F.int(book["_id"]))
            let film = try await client.create("films", #"{"title": "Emma", "minutes": 124, "shelves": [\#(shelf)]}"#)
            #expect(film["_entity"] as? String == "Film" && F.int(film["minutes"]) == 124, "\(film)")
            let films = try #require(try await client.get("/films?where.title=Emma").json()["data"] as? [[String: Any]])
            #expect(films.count == 1)

            let cloned = try await client.post("/books/\(bookID)/clone", "{}")
            #expect(cloned.status == 201, "\(cloned.text)")
            let answer = try cloned.json()
            #expect(F.counts(answer["created"]) == ["Book": 1, "Chapter": 2] && F.counts(answer["linked"]) == ["Shelf": 1], "\(cloned.text)")
            let copyID = try cloned.cloneID()
            let copy = try await client.get("/books/\(copyID)").json()
            #expect(copy["title"] as? String == "Emma" && F.ints(copy["shelves"]) == [shelf], "\(copy)")
            #expect(copy["uuid"] as? String != nil && (copy["uuid"] as? String)?.uppercased() != uuid.uppercased(), "the record's rule: \(copy)")
        }
    }

    @Test("an attribute added to an abstract parent and a new leaf migrate every leaf", arguments: StoreBackendKind.available)
    func versionsOfTheHierarchyMigrate(_ backend: StoreBackendKind) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try await TestService.start(
            directory: directory.url, backend: backend, overrides: .init(modelPath: try directory.write(Self.model(), to: "v1.json")))
        let shared = backend == .postgreSQL ? first.databaseLocation : nil
        let pageID = try await first.client.createdID("pages", #"{"uuid": "\#(UUID().uuidString)", "title": "home"}"#)
        await first.stop()

        let next = Self.model(
            middleExtra: #", { "name": "summary", "type": "string", "optional": true }"#,
            extraLeaf: #"{ "name": "Post", "parent": "Document", "attributes": [ { "name": "slug", "type": "string", "optional": true } ] },"#)
        let second = try await TestService.start(
            directory: directory.url, backend: backend, overrides: .init(modelPath: try directory.write(next, to: "v2.json")), sharedDatabase: shared)
        let migrated = try #require(MigrationLogServiceTests.line(second, "store migrated"), "\(second.log.text)")
        let steps = migrated["steps"] as? String ?? ""
        #expect(steps.contains(#""Note" ADD COLUMN "summary""#) && steps.contains(#""Page" ADD COLUMN "summary""#), "\(steps)")
        #expect(try await second.client.patch("/pages/\(pageID)", #"{"summary": "s"}"#).status == 200)
        #expect(try await second.client.get("/pages/\(pageID)").json()["title"] as? String == "home")
        let post = try await second.client.create("posts", #"{"uuid": "\#(UUID().uuidString)", "title": "hello", "slug": "hello", "summary": "hi"}"#)
        #expect(post["_entity"] as? String == "Post" && post["summary"] as? String == "hi", "\(post)")
        await second.stop()
    }
}
