import ClonerService
import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// `POST /{collection}/{id}/clone` (docs/architecture.md#clone-semantics, #http-contract) against the real binary.
@Suite("Service: clone")
struct CloneServiceTests {
    typealias F = EndToEndFixture

    @Test(
        "clone: 201 + Location + counts; the copy is deep, rebuilt where the model says, linked where shared; the original is untouched",
        arguments: StoreBackendKind.available)
    func deepClone(_ backend: StoreBackendKind) async throws {
        do {
            try await TestService.withService(backend: backend) { service in
                let client = service.client
                let original = try await client.create("notes", F.richNote(name: "trip", tag: "travel"))
                let originalID = try #require(F.int(original["_id"]))
                let template = try await client.create("notes", F.note(#""name":"template""#))
                let templateID = try #require(F.int(template["_id"]))
                #expect(try await client.patch("/notes/\(originalID)", #"{"template":\#(templateID),"shareLink":"https://x/y","data":"AAEC"}"#).status == 200)
                let before = try await client.get("/notes/\(originalID)")

                let response = try await client.post("/notes/\(originalID)/clone", nil)
                #expect(response.status == 201, "\(response.text)")
                let answer = try response.json()
                let cloneID = try #require(F.int((answer["clone"] as? [String: Any])?["id"]))
                #expect(response.header("Location") == "/notes/\(cloneID)")
                #expect((answer["source"] as? [String: Any])?["entity"] as? String == "Note")
                #expect(F.int((answer["source"] as? [String: Any])?["id"]) == originalID)
                #expect(F.counts(answer["created"]) == ["Note": 1, "Item": 2, "ItemData": 1, "Memo": 1, "NoteDescription": 1])
                #expect(F.counts(answer["linked"]) == ["Tag": 1, "Note": 1])
                #expect(answer["ids"] == nil, "ids only with returnIds")

                let copy = try await client.get("/notes/\(cloneID)").json()
                let source = try before.json()
                #expect(copy["name"] as? String == "trip")
                #expect(copy["id"] as? String != source["id"] as? String, "rebuild: uuid")
                #expect(copy["createDate"] as? String != F.date, "rebuild: now")
                #expect(copy["shareLink"] is NSNull, "exclude rule")
                #expect(copy["data"] as? String == "AAEC", "binary copied")
                #expect(F.int(copy["template"]) == templateID, "clone: share")
                let copiedItems = try #require(F.ints(copy["items"]))
                #expect(copiedItems.count == 2)
                #expect(Set(copiedItems).isDisjoint(with: Set(F.ints(source["items"]) ?? [])))
                let firstCopy = try await client.get("/items/\(copiedItems[0])").json()
                #expect(firstCopy["name"] as? String == "first", "order kept")
                #expect(firstCopy["noteID"] as? String == copy["id"] as? String, "followParent: the clone's rebuilt id")
                #expect(F.int(firstCopy["note"]) == cloneID)
                let memoCopy = try await client.get("/memos/\(try #require(F.ints(copy["memos"])?.first))").json()
                let tagID = try #require(F.ints(memoCopy["tags"])?.first)
                #expect(tagID == F.ints(try await client.get("/memos/\(F.ints(source["memos"])![0])").json()["tags"])?.first, "tags are shared, not copied")
                #expect(F.ints(try await client.get("/tags/\(tagID)").json()["memos"])?.count == 2)
                #expect(try await service.count("Tag") == 1)

                let after = try await client.get("/notes/\(originalID)")
                #expect(after.text == before.text, "the original is untouched")
            }
        }
    }

    @Test("dryRun answers 200 with the counts and writes nothing; returnIds maps every old _id to its new one", arguments: StoreBackendKind.available)
    func dryRunAndReturnIDs(_ backend: StoreBackendKind) async throws {
        do {
            try await TestService.withService(backend: backend) { service in
                let client = service.client
                let original = try await client.create("notes", F.richNote(name: "plan", tag: "t"))
                let originalID = try #require(F.int(original["_id"]))
                let rows = try await service.counts(["Note", "Item", "ItemData", "Memo", "NoteDescription", "_rel_Memo_tags"])

                let dry = try await client.post("/notes/\(originalID)/clone", #"{"dryRun":true}"#)
                #expect(dry.status == 200)
                #expect(dry.header("Location") == nil)
                let dryAnswer = try dry.json()
                #expect(F.counts(dryAnswer["created"]) == ["Note": 1, "Item": 2, "ItemData": 1, "Memo": 1, "NoteDescription": 1])
                #expect(F.counts(dryAnswer["linked"]) == ["Tag": 1])
                #expect(try await service.counts(["Note", "Item", "ItemData", "Memo", "NoteDescription", "_rel_Memo_tags"]) == rows)

                let real = try await client.post("/notes/\(originalID)/clone", #"{"returnIds":true}"#)
                #expect(real.status == 201)
                let answer = try real.json()
                #expect(F.counts(answer["created"]) == F.counts(dryAnswer["created"]), "the dry run predicted the real counts")
                let ids = try #require(answer["ids"] as? [String: [String: Any]])
                #expect(Set(ids.keys) == ["Note", "Item", "ItemData", "Memo", "NoteDescription"])
                let cloneID = try #require(F.int((answer["clone"] as? [String: Any])?["id"]))
                #expect(F.int(ids["Note"]?["\(originalID)"]) == cloneID)
                let copy = try await client.get("/notes/\(cloneID)").json()
                let mappedItems = try #require(F.ints(original["items"])).map { F.int(ids["Item"]?["\($0)"]) }
                #expect(mappedItems.compactMap { $0 } == F.ints(copy["items"]))
                #expect(ids["Item"]?.count == 2)
            }
        }
    }

    @Test("exclude and set shape the copy; bad entries are 422 naming them; an unknown source is 404", arguments: StoreBackendKind.available)
    func excludeSetAndRejections(_ backend: StoreBackendKind) async throws {
        do {
            try await TestService.withService(backend: backend) { service in
                let client = service.client
                let original = try await client.create("notes", F.richNote(name: "shape", tag: "t"))
                let originalID = try #require(F.int(original["_id"]))
                let other = try await client.create("notes", F.note(#""name":"other""#))
                let otherID = try #require(F.int(other["_id"]))

                let newID = F.uuid()
                let shaped = try await client.post(
                    "/notes/\(originalID)/clone",
                    #"{"exclude":["memos","Item.itemDatas"],"set":{"name":"shaped","id":"\#(newID)","index":42,"template":\#(otherID)}}"#)
                #expect(shaped.status == 201, "\(shaped.text)")
                let answer = try shaped.json()
                #expect(F.counts(answer["created"]) == ["Note": 1, "Item": 2, "NoteDescription": 1])
                let copy = try await client.get(try #require(shaped.header("Location"))).json()
                #expect(copy["name"] as? String == "shaped")
                #expect(copy["id"] as? String == newID, "set overrides rebuild")
                #expect(F.int(copy["index"]) == 42)
                #expect(F.int(copy["template"]) == otherID)
                #expect(F.ints(copy["memos"]) == [])
                let item = try await client.get("/items/\(try #require(F.ints(copy["items"])?.first))").json()
                #expect(F.ints(item["itemDatas"]) == [])
                #expect(item["noteID"] as? String == newID, "followParent follows the set value")

                let notesBefore = try await service.count("Note")
                for (body, field) in [
                    (#"{"exclude":["nope"]}"#, "exclude"), (#"{"exclude":["Item.nope"]}"#, "exclude"),
                    (#"{"exclude":[3]}"#, "exclude[0]"), (#"{"set":{"nope":1}}"#, "set.nope"),
                    (#"{"set":{"index":"many"}}"#, "set.index"), (#"{"set":{"template":"x"}}"#, "set.template"),
                    (#"{"dryRun":"yes"}"#, "dryRun"), (#"{"copies":0}"#, "copies"),
                ] {
                    let response = try await client.post("/notes/\(originalID)/clone", body)
                    #expect(response.status == 422, "\(body) → \(response.text)")
                    let problem = try response.json()
                    #expect(problem["code"] as? String == "validation_failed")
                    let named = F.errorFields(problem).contains { $0.hasPrefix(field) } || (problem["detail"] as? String ?? "").contains(field)
                    #expect(named, "\(body) should name \(field): \(response.text)")
                }
                let dangling = try await client.post("/notes/\(originalID)/clone", #"{"set":{"template":987654}}"#)
                #expect(dangling.status == 422)
                #expect(dangling.text.contains("set.template"))
                let malformed = try await client.post("/notes/\(originalID)/clone", "{")
                #expect(malformed.status == 400)
                #expect(try malformed.json()["code"] as? String == "invalid_json")
                #expect(try await client.post("/notes/\(originalID)/clone", "x=1", headers: [("Content-Type", "text/plain")]).status == 415)
                let unknown = try await client.post("/notes/987654/clone", nil)
                #expect(unknown.status == 404)
                #expect(try unknown.json()["code"] as? String == "not_found")
                #expect(try await client.post("/unicorns/1/clone", nil).status == 404)
                let conflict = try await client.post("/notes/\(originalID)/clone", #"{"set":{"id":"\#(newID)"}}"#)
                #expect(conflict.status == 409, "unique id taken: \(conflict.text)")
                #expect(try conflict.json()["code"] as? String == "conflict")
                #expect(try await service.count("Note") == notesBefore, "no rejected clone wrote anything")
            }
        }
    }
}

/// Clone semantics that need their own service: a clone joining a shared parent, and the
/// per-clone object limit from the command line.
@Suite("Service: clone limits and shared parents")
struct CloneSharingEndToEndTests {
    typealias F = EndToEndFixture

    @Test(
        "an Item clone joins its note (shared, inverse to-many) at the end; a clone over --max-objects is refused and writes nothing",
        arguments: StoreBackendKind.available)
    func sharedParentAndObjectLimit(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(overrides: .init(maxObjectsPerClone: 3)) { service in
            let client = service.client
            let note = try await client.create(
                "notes", F.note(#""name":"parent","items":[{"name":"a","itemDatas":[{"createDate":"\#(F.date)"}]},{"name":"b"}]"#))
            let noteID = try #require(F.int(note["_id"]))
            let items = try #require(F.ints(note["items"]))

            let cloned = try await client.post("/items/\(items[0])/clone", nil)
            #expect(cloned.status == 201, "\(cloned.text)")
            let answer = try cloned.json()
            #expect(F.counts(answer["created"]) == ["Item": 1, "ItemData": 1])
            #expect(F.counts(answer["linked"]) == ["Note": 1])
            let copyID = try #require(F.int((answer["clone"] as? [String: Any])?["id"]))
            #expect(F.ints(try await client.get("/notes/\(noteID)").json()["items"]) == items + [copyID], "appended at the end")
            let copy = try await client.get("/items/\(copyID)").json()
            #expect(F.int(copy["note"]) == noteID)
            #expect(copy["noteID"] is NSNull, "followParent without a parent: withoutParent blank")

            let rows = try await service.count("Item") + service.count("ItemData") + service.count("Note")
            let tooLarge = try await client.post("/notes/\(noteID)/clone", nil)
            #expect(tooLarge.status == 422)
            let problem = try tooLarge.json()
            #expect(problem["code"] as? String == "too_many_objects")
            #expect((problem["detail"] as? String)?.contains("3") == true)
            #expect(try await service.count("Item") + service.count("ItemData") + service.count("Note") == rows)
            let dry = try await client.post("/notes/\(noteID)/clone", #"{"dryRun":true}"#)
            #expect(dry.status == 422, "a dry run reports the limit too")
        }
    }
}
