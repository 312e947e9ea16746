import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// Relationship rule 8 (docs/architecture.md#set-on-the-root) over HTTP: a `set` link never takes objects from their owner, the branch
/// it replaces is not copied, and what it links counts in `linked`.
@Suite("Service: clone set rules")
struct CloneSetServiceTests {
    typealias F = EndToEndFixture

    @Test("set items/memos to the source's own objects: 422 naming the field, the original unchanged, nothing written", arguments: StoreBackendKind.available)
    func setThatWouldTakeObjectsIsRefused(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            let original = try await client.create("notes", F.richNote(name: "trip", tag: "travel"))
            let originalID = try #require(F.int(original["_id"]))
            let before = try await client.get("/notes/\(originalID)").text
            let counts = try await service.counts(["Note", "Item", "Memo", "NoteDescription"])
            for field in ["items", "memos"] {
                let taken = try #require(F.ints(original[field])?.first)
                let response = try await client.post("/notes/\(originalID)/clone", #"{"set": {"\#(field)": [\#(taken)]}}"#)
                #expect(response.status == 422, "\(response.text)")
                #expect(F.errorFields(try response.json()) == ["set.\(field)"])
                #expect(response.text.contains("Note.\(field)"))
            }
            #expect(try await client.get("/notes/\(originalID)").text == before)
            #expect(try await service.counts(["Note", "Item", "Memo", "NoteDescription"]) == counts)
        }
    }

    @Test(
        "set on a followParent attribute of the root (an item's noteID): 201 with the value, sync and async, null too",
        arguments: StoreBackendKind.available)
    func setFollowParentAttributeOfTheRoot(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            let noteUUID = F.uuid()
            let note = try await client.create("notes", F.note(#""name":"owner","items":[{"name":"child"}]"#, id: noteUUID))
            let itemID = try #require(F.ints(note["items"])?.first)
            let before = try await client.get("/items/\(itemID)").text
            let chosen = F.uuid()
            let cases: [(value: String, expected: String?)] = [("\"\(chosen)\"", chosen), ("null", nil)]
            for (value, expected) in cases {
                for async in [false, true] {
                    let response = try await client.post(
                        "/items/\(itemID)/clone", #"{"set": {"noteID": \#(value)}}"#,
                        headers: async ? [("Prefer", "respond-async")] : [])
                    var result: [String: Any]
                    if async {
                        #expect(response.status == 202, "\(response.text)")
                        let job = try await JobsServiceTests.waitForJob(client, try #require(response.header("Location")))
                        #expect(job["status"] as? String == "succeeded", "\(job)")
                        result = try #require(job["result"] as? [String: Any])
                    } else {
                        #expect(response.status == 201, "\(response.text)")
                        result = try response.json()
                    }
                    let copyID = try #require(F.int((result["clone"] as? [String: Any])?["id"]))
                    let copy = try await client.get("/items/\(copyID)").json()
                    #expect(copy["noteID"] as? String == expected, "set noteID \(value), async \(async): \(copy)")
                    #expect(copy["name"] as? String == "child")
                }
            }
            #expect(try await client.get("/items/\(itemID)").text == before, "the source item is unchanged")
        }
    }

    @Test("set noteDescription null copies no description; set template counts in linked", arguments: StoreBackendKind.available)
    func setReplacesTheBranchAndCountsLinks(_ backend: StoreBackendKind) async throws {
        do {
            try await TestService.withService(backend: backend) { service in
                let client = service.client
                let original = try await client.create("notes", F.richNote(name: "trip", tag: "travel"))
                let originalID = try #require(F.int(original["_id"]))
                let template = try await client.create("notes", F.note(#""name":"template""#))
                let templateID = try #require(F.int(template["_id"]))
                let response = try await client.post("/notes/\(originalID)/clone", #"{"set": {"noteDescription": null, "template": \#(templateID)}}"#)
                #expect(response.status == 201, "\(response.text)")
                let answer = try response.json()
                #expect(F.counts(answer["created"])["NoteDescription"] == nil)
                #expect(F.counts(answer["linked"]) == ["Tag": 1, "Note": 1])
                #expect(try await service.count("NoteDescription") == 1)
                let cloneID = try #require(F.int((answer["clone"] as? [String: Any])?["id"]))
                let copy = try await client.get("/notes/\(cloneID)").json()
                #expect(copy["noteDescription"] is NSNull)
                #expect(F.int(copy["template"]) == templateID)
            }
        }
    }

    @Test(
        "set tags on many copies of a memo: each copy lists the tags, each tag lists every copy, counted once in linked", arguments: StoreBackendKind.available)
    func setToManyOnManyCopies(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            let original = try await client.create("notes", F.richNote(name: "trip", tag: "travel"))
            let memoID = try #require(F.ints(original["memos"])?.first)
            let sourceTags = try #require(F.ints(try await client.get("/memos/\(memoID)").json()["tags"]))
            var tagIDs: [Int] = []
            for name in ["home", "work"] { tagIDs.append(try await client.createdID("tags", #"{"name":"\#(name)"}"#)) }

            let response = try await client.post("/memos/\(memoID)/clone", #"{"set": {"tags": [\#(tagIDs[1]), \#(tagIDs[0])]}, "copies": 3}"#)
            #expect(response.status == 201, "\(response.text)")
            let answer = try response.json()
            let clones = try #require(answer["clones"] as? [[String: Any]]).compactMap { F.int($0["id"]) }
            #expect(clones.count == 3)
            #expect(F.counts(answer["created"]) == ["Memo": 3])
            #expect(F.counts(answer["linked"]) == ["Tag": 2, "Note": 1])
            for clone in clones {
                #expect(Set(F.ints(try await client.get("/memos/\(clone)").json()["tags"]) ?? []) == Set(tagIDs))
            }
            for tag in tagIDs {
                #expect(Set(F.ints(try await client.get("/tags/\(tag)").json()["memos"]) ?? []) == Set(clones), "tag \(tag) lists every copy")
            }
            #expect(F.ints(try await client.get("/memos/\(memoID)").json()["tags"]) == sourceTags, "the source keeps its tags")
        }
    }
}
