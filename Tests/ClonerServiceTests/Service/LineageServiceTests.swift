import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// A clone knows where it came from (docs/architecture.md#lineage): `_clonedFrom` on every copy's
/// root, `GET /{collection}/{id}/clones` newest first and paged, through the real server.
@Suite("Service: clone lineage")
struct LineageServiceTests {
    typealias F = EndToEndFixture

    /// The `id` of a record's `_clonedFrom`, nil when it has none; an `entity` other than
    /// `entity` fails the test.
    private static func clonedFrom(_ record: [String: Any], entity: String = "Note") -> Int? {
        guard let member = record["_clonedFrom"] else { return nil }
        let origin = member as? [String: Any]
        #expect(origin?["entity"] as? String == entity, "\(member)")
        #expect(origin?.count == 2, "\(member)")
        return F.int(origin?["id"])
    }

    /// Every clone `GET path` lists, following `next` to the end.
    private static func allClones(_ client: ServiceClient, _ path: String) async throws -> [[String: Any]] {
        var found: [[String: Any]] = []
        var next: String? = path
        while let page = next {
            let response = try await client.get(page)
            #expect(response.status == 200, "\(response.text)")
            let answer = try response.json()
            found += try #require(answer["data"] as? [[String: Any]])
            next = answer["next"] as? String
        }
        return found
    }

    @Test(
        "every copy's root names its source, a clone of a clone its own; what the clone owns and what is no clone has none",
        arguments: StoreBackendKind.available)
    func copiesAndCloneOfClone(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            let note = try await client.create("notes", F.richNote(name: "template", tag: "shared"))
            let noteID = try #require(F.int(note["_id"]))
            #expect(note["_clonedFrom"] == nil)

            let copies = try await client.post("/notes/\(noteID)/clone", #"{"copies":3}"#)
            #expect(copies.status == 201, "\(copies.text)")
            let copyIDs = try #require(try copies.json()["clones"] as? [[String: Any]]).compactMap { F.int($0["id"]) }
            #expect(copyIDs.count == 3)
            for id in copyIDs {
                let copy = try await client.get("/notes/\(id)").json()
                #expect(Self.clonedFrom(copy) == noteID)
                // Only the root is the clone: what it owns was copied with it, not cloned on its own.
                let itemID = try #require(F.ints(copy["items"])?.first)
                #expect(try await client.get("/items/\(itemID)").json()["_clonedFrom"] == nil)
            }
            #expect(try await client.get("/notes/\(noteID)").json()["_clonedFrom"] == nil)

            // A list page carries it too, record by record.
            let page = try #require(try await client.get("/notes?limit=10").json()["data"] as? [[String: Any]])
            #expect(page.count == 4)
            for record in page {
                let id = try #require(F.int(record["_id"]))
                #expect(Self.clonedFrom(record) == (id == noteID ? nil : noteID), "\(record)")
            }

            let again = try await client.post("/notes/\(copyIDs[1])/clone", "{}")
            #expect(again.status == 201, "\(again.text)")
            let grandchildID = try again.cloneID()
            #expect(Self.clonedFrom(try await client.get("/notes/\(grandchildID)").json()) == copyIDs[1])
            #expect(try await Self.allClones(client, "/notes/\(copyIDs[1])/clones").compactMap { F.int($0["id"]) } == [grandchildID])

            // A dry run writes no lineage; the list is the three copies, newest first.
            #expect(try await client.post("/notes/\(noteID)/clone", #"{"dryRun":true}"#).status == 200)
            let listed = try await Self.allClones(client, "/notes/\(noteID)/clones")
            #expect(listed.compactMap { F.int($0["id"]) } == copyIDs.sorted(by: >))
            #expect(listed.allSatisfy { $0["entity"] as? String == "Note" })
            let stamp = try #require(listed.first?["createdAt"] as? String)
            #expect(stamp.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "\(stamp)")
        }
    }

    @Test("the source's deletion keeps the lineage; a clone's deletion forgets it", arguments: StoreBackendKind.available)
    func sourceAndCloneDeleted(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            let note = try await client.create("notes", F.richNote(name: "template", tag: "shared"))
            let noteID = try #require(F.int(note["_id"]))
            var cloneIDs: [Int] = []
            for _ in 0..<2 {
                let clone = try await client.post("/notes/\(noteID)/clone", "{}")
                #expect(clone.status == 201, "\(clone.text)")
                cloneIDs.append(try clone.cloneID())
            }
            #expect(try await client.delete("/notes/\(noteID)").status == 204)
            #expect(try await client.get("/notes/\(noteID)").status == 404)
            for id in cloneIDs {
                #expect(Self.clonedFrom(try await client.get("/notes/\(id)").json()) == noteID)
            }
            #expect(try await Self.allClones(client, "/notes/\(noteID)/clones").compactMap { F.int($0["id"]) } == cloneIDs.reversed())

            #expect(try await client.delete("/notes/\(cloneIDs[0])").status == 204)
            #expect(try await Self.allClones(client, "/notes/\(noteID)/clones").compactMap { F.int($0["id"]) } == [cloneIDs[1]])
            // Every clone gone, the table holds nothing; a new note is no clone.
            #expect(try await client.delete("/notes/\(cloneIDs[1])").status == 204)
            let fresh = try await client.create("notes", F.note(#""name":"fresh""#))
            #expect(fresh["_clonedFrom"] == nil, "\(fresh)")
            #expect(try await client.get("/notes/\(try #require(F.int(fresh["_id"])))").json()["_clonedFrom"] == nil)
            #expect(try await service.count("_cloner_lineage") == 0)

            // A source that is gone and has no clone left: nothing to say.
            let missing = try await client.get("/notes/\(noteID)/clones")
            #expect(missing.status == 404, "\(missing.text)")
            #expect(try await client.get("/notes/999999/clones").status == 404)
            #expect(try await client.get("/nowhere/1/clones").status == 404)
            let empty = try await client.get("/notes/\(try #require(F.int(fresh["_id"])))/clones")
            #expect(empty.status == 200, "\(empty.text)")
            #expect((try empty.json()["data"] as? [Any])?.isEmpty == true)
        }
    }

    @Test(
        "paging: limit and next give every clone once, newest first; a bad limit, cursor or parameter is a 422 naming it", arguments: StoreBackendKind.available
    )
    func paging(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            let note = try await client.create("notes", F.note(#""name":"template""#))
            let noteID = try #require(F.int(note["_id"]))
            #expect(try await client.post("/notes/\(noteID)/clone", #"{"copies":5}"#).status == 201)
            #expect(try await client.post("/notes/\(noteID)/clone", "{}").status == 201)
            // A background clone notes its lineage in its job's transaction too.
            let accepted = try await client.post("/notes/\(noteID)/clone", "{}", headers: [("Prefer", "respond-async")])
            #expect(accepted.status == 202, "\(accepted.text)")
            let job = try await JobsServiceTests.waitForJob(client, try #require(accepted.header("Location")))
            let jobClone = try #require(F.int(((job["result"] as? [String: Any])?["clone"] as? [String: Any])?["id"]))

            let first = try await client.get("/notes/\(noteID)/clones?limit=3").json()
            #expect((first["data"] as? [Any])?.count == 3)
            let next = try #require(first["next"] as? String)
            #expect(next.hasPrefix("/notes/\(noteID)/clones?limit=3&cursor="), "\(next)")
            let listed = try await Self.allClones(client, "/notes/\(noteID)/clones?limit=3").compactMap { F.int($0["id"]) }
            // Later clones have larger `_id`s and no earlier time: newest first is `_id` descending.
            #expect(listed.count == 7 && Set(listed).count == 7)
            #expect(listed == listed.sorted(by: >))
            #expect(listed.first == jobClone)
            // A clone made between pages comes before the cursor: the walk goes on where it was.
            #expect(try await client.post("/notes/\(noteID)/clone", "{}").status == 201)
            let rest = try await Self.allClones(client, next).compactMap { F.int($0["id"]) }
            #expect(rest == Array(listed.dropFirst(3)))

            for (query, field) in [("limit=0", "limit"), ("limit=1001", "limit"), ("cursor=nope", "cursor"), ("after=3", "after")] {
                let response = try await client.get("/notes/\(noteID)/clones?\(query)")
                #expect(response.status == 422, "\(query): \(response.text)")
                #expect(F.errorFields(try response.json()) == [field])
            }
        }
    }

    @Test("a graph export of a clone names its source; an import's objects are no clones", arguments: StoreBackendKind.available)
    func graphTravel(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            let note = try await client.create("notes", F.note(#""name":"template","items":[{"name":"one"}]"#))
            let noteID = try #require(F.int(note["_id"]))
            let clone = try await client.post("/notes/\(noteID)/clone", "{}")
            let cloneID = try clone.cloneID()

            let export = try await client.get("/notes/\(cloneID)/export")
            #expect(export.status == 200, "\(export.text)")
            let marked = export.text.split(separator: "\n").filter { $0.contains("clonedFrom") }
            #expect(marked.count == 1 && marked[0].hasSuffix(#","clonedFrom":{"entity":"Note","id":\#(noteID)}}"#), "\(export.text)")

            let imported = try await client.request(
                "POST", "/notes/import", headers: [("Content-Type", "application/vnd.cloner.graph+x-ndjson")], body: export.text)
            #expect(imported.status == 201, "\(imported.text)")
            let importedID = try imported.cloneID()
            #expect(try await client.get("/notes/\(importedID)").json()["_clonedFrom"] == nil)
            #expect(try await Self.allClones(client, "/notes/\(cloneID)/clones").isEmpty)
        }
    }

    @Test("_clonedFrom in a create or PATCH body is a 422 naming it; read-only keys may list clones", arguments: StoreBackendKind.available)
    func notWritableAndReadable(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, environment: ["CLONER_API_KEYS": "writer-key", "CLONER_READ_API_KEYS": "reader-key"]) {
            service in
            let writer = ServiceClient(port: service.port, defaultHeaders: [("Authorization", "Bearer writer-key")])
            let reader = ServiceClient(port: service.port, defaultHeaders: [("Authorization", "Bearer reader-key")])
            let note = try await writer.create("notes", F.note(#""name":"template""#))
            let noteID = try #require(F.int(note["_id"]))
            let clone = try await writer.post("/notes/\(noteID)/clone", "{}")
            let cloneID = try clone.cloneID()

            let created = try await writer.post("/notes", F.note(#""_clonedFrom":{"entity":"Note","id":\#(noteID)}"#))
            #expect(created.status == 422, "\(created.text)")
            #expect(F.errorFields(try created.json()) == ["_clonedFrom"])
            let patched = try await writer.patch("/notes/\(cloneID)", #"{"_clonedFrom":{"entity":"Note","id":\#(noteID)},"name":"x"}"#)
            #expect(patched.status == 422, "\(patched.text)")
            #expect(F.errorFields(try patched.json()) == ["_clonedFrom"])
            #expect(try await writer.get("/notes/\(cloneID)").json()["name"] as? String == "template")

            let listed = try await reader.get("/notes/\(noteID)/clones")
            #expect(listed.status == 200, "\(listed.text)")
            #expect((try listed.json()["data"] as? [[String: Any]])?.compactMap { F.int($0["id"]) } == [cloneID])
            #expect(try await ServiceClient(port: service.port).get("/notes/\(noteID)/clones").status == 401)
        }
    }
}
