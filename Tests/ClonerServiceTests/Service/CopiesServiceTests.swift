import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// Many copies in one request over HTTP (docs/architecture.md#many-copies).
@Suite("Service: many copies in one request")
struct CopiesServiceTests {
    typealias F = EndToEndFixture

    @Test("copies: N answers clones in order, created totals, ids per copy; a list of sets names each copy")
    func answerShape() async throws {
        try await TestService.withService { service in
            let client = service.client
            let note = try await client.create("notes", F.richNote(name: "template", tag: "shared"))
            let noteID = try #require(F.int(note["_id"]))

            let response = try await client.post("/notes/\(noteID)/clone", #"{"copies":3,"returnIds":true}"#)
            #expect(response.status == 201, "\(response.text)")
            let answer = try response.json()
            let clones = try #require(answer["clones"] as? [[String: Any]])
            let cloneIDs = clones.compactMap { F.int($0["id"]) }
            #expect(clones.count == 3 && Set(cloneIDs).count == 3)
            #expect(clones.allSatisfy { $0["entity"] as? String == "Note" })
            #expect(F.int((answer["clone"] as? [String: Any])?["id"]) == cloneIDs.first)
            #expect(response.header("Location") == "/notes/\(cloneIDs[0])")
            #expect(F.counts(answer["created"]) == ["Note": 3, "Item": 6, "ItemData": 3, "Memo": 3, "NoteDescription": 3])
            #expect(F.counts(answer["linked"]) == ["Tag": 1])
            let ids = try #require(answer["ids"] as? [[String: Any]])
            #expect(ids.count == 3)
            for (copy, map) in ids.enumerated() {
                #expect(F.int((map["Note"] as? [String: Any])?["\(noteID)"]) == cloneIDs[copy])
            }
            for id in cloneIDs {
                let clone = try await client.get("/notes/\(id)").json()
                #expect(clone["name"] as? String == "template")
                #expect(F.ints(clone["items"])?.count == 2)
            }

            let named = try await client.post(
                "/notes/\(noteID)/clone",
                #"{"set":{"index":7},"copies":[{"set":{"name":"Class A"}},{"set":{"name":"Class B","index":2}}]}"#)
            #expect(named.status == 201, "\(named.text)")
            let namedIDs = try #require(try named.json()["clones"] as? [[String: Any]]).compactMap { F.int($0["id"]) }
            var names: [String] = [], indexes: [Int] = []
            for id in namedIDs {
                let clone = try await client.get("/notes/\(id)").json()
                names.append(clone["name"] as? String ?? "")
                indexes.append(F.int(clone["index"]) ?? -1)
            }
            #expect(names == ["Class A", "Class B"])
            #expect(indexes == [7, 2])

            // Without copies, the answer is exactly today's: no clones member, ids a single map.
            let single = try await client.post("/notes/\(noteID)/clone", #"{"returnIds":true}"#).json()
            #expect(single["clones"] == nil)
            #expect(single["ids"] is [String: Any])

            let dry = try await client.post("/notes/\(noteID)/clone", #"{"copies":4,"dryRun":true}"#)
            #expect(dry.status == 200)
            #expect(F.counts(try dry.json()["created"])["Item"] == 8)
            #expect(try await service.count("Note") == 1 + 3 + 2 + 1)
        }
    }

    @Test("bad copies answer 422 naming the field; a unique clash in one copy is a 409 naming it and writes nothing")
    func refusals() async throws {
        try await TestService.withService(environment: ["CLONER_MAX_COPIES": "5"]) { service in
            let client = service.client
            let note = try await client.create("notes", F.richNote(name: "template", tag: "shared"))
            let noteID = try #require(F.int(note["_id"]))
            let cases: [(body: String, field: String)] = [
                (#"{"copies":0}"#, "copies"),
                (#"{"copies":-2}"#, "copies"),
                (#"{"copies":2.5}"#, "copies"),
                (#"{"copies":"3"}"#, "copies"),
                (#"{"copies":6}"#, "copies"),
                (#"{"copies":[]}"#, "copies"),
                (#"{"copies":[{"set":{}},{"set":{}},{"set":{}},{"set":{}},{"set":{}},{"set":{}}]}"#, "copies"),
                (#"{"copies":[{"set":{}},{"name":"x"}]}"#, "copies[1].name"),
                (#"{"copies":[{"set":{}},{"set":{}},{"set":{}},{"set":{"name":7}}]}"#, "copies[3].set.name"),
                (#"{"copies":[{"set":{"nope":1}}]}"#, "copies[0].set.nope"),
                (#"{"copies":[{"set":{"template":999999}},{"set":{"template":999999}}]}"#, "copies[0].set.template"),
            ]
            for (body, field) in cases {
                let response = try await client.post("/notes/\(noteID)/clone", body)
                #expect(response.status == 422, "\(body): \(response.text)")
                let problem = try response.json()
                #expect(F.errorFields(problem).contains(field), "\(body): \(response.text)")
            }
            let uuid = UUID().uuidString.lowercased()
            let clash = try await client.post("/notes/\(noteID)/clone", #"{"copies":[{"set":{"id":"\#(uuid)"}},{"set":{}},{"set":{"id":"\#(uuid)"}}]}"#)
            #expect(clash.status == 409, "\(clash.text)")
            let problem = try clash.json()
            #expect(problem["field"] as? String == "copies[2].id")
            #expect((problem["detail"] as? String ?? "").contains("copy 2"))
            #expect(try await service.count("Note") == 1, "no copy was kept")
        }
    }

    @Test(
        "set values counted once per copy are bounded by maxCloneSetBytes: 422 naming set or copies, nothing written",
        arguments: StoreBackendKind.available)
    func setBytesTimesCopiesAreBounded(_ backend: StoreBackendKind) async throws {
        // 10,000 bytes a copy: 5 copies fit 50,000; 6 do not.
        try await TestService.withService(backend: backend, environment: ["CLONER_MAX_CLONE_SET_BYTES": "50000"]) { service in
            let client = service.client
            let note = try await client.create("notes", F.richNote(name: "template", tag: "shared"))
            let noteID = try #require(F.int(note["_id"]))
            let name = String(repeating: "n", count: 10_000)
            let perCopy = (0..<6).map { _ in #"{"set":{"name":"\#(name)"}}"# }.joined(separator: ",")
            for (body, field) in [
                (#"{"set":{"name":"\#(name)"},"copies":6}"#, "set"),
                (#"{"copies":[\#(perCopy)]}"#, "copies"),
                (#"{"set":{"name":"\#(name)"},"copies":6,"dryRun":true}"#, "set"),
            ] {
                let refused = try await client.post("/notes/\(noteID)/clone", body)
                #expect(refused.status == 422, "\(refused.text)")
                let problem = try refused.json()
                #expect(F.errorFields(problem) == [field], "\(refused.text)")
                #expect(refused.text.contains("maxCloneSetBytes"))
            }
            #expect(try await service.count("Note") == 1, "nothing written")
            // A per-copy value replaces the request's own, so it is not counted twice: 5 copies of
            // 10,000 bytes each, whichever way they are given.
            let fits = try await client.post(
                "/notes/\(noteID)/clone", #"{"set":{"name":"\#(name)"},"copies":[{"set":{"name":"\#(name)"}},{},{},{},{}]}"#)
            #expect(fits.status == 201, "\(fits.text)")
            #expect(try await service.count("Note") == 6)
        }
    }

    @Test("respond-async and Idempotency-Key work for a batch")
    func asyncAndReplay() async throws {
        try await TestService.withService { service in
            let client = service.client
            let note = try await client.create("notes", F.richNote(name: "template", tag: "shared"))
            let noteID = try #require(F.int(note["_id"]))
            let accepted = try await client.post("/notes/\(noteID)/clone", #"{"copies":4}"#, headers: [("Prefer", "respond-async")])
            #expect(accepted.status == 202, "\(accepted.text)")
            let job = try await JobsServiceTests.waitForJob(client, try #require(accepted.header("Location")))
            #expect(job["status"] as? String == "succeeded")
            let result = try #require(job["result"] as? [String: Any])
            #expect((result["clones"] as? [Any])?.count == 4)
            #expect(F.int((job["progress"] as? [String: Any])?["planned"]) == 4 * 6)

            let key = [("Idempotency-Key", "batch-\(UUID().uuidString)")]
            let body = #"{"copies":[{"set":{"name":"A"}},{"set":{"name":"B"}}]}"#
            let first = try await client.post("/notes/\(noteID)/clone", body, headers: key)
            #expect(first.status == 201)
            let again = try await client.post("/notes/\(noteID)/clone", body, headers: key)
            #expect(again.status == 201)
            #expect(again.body == first.body)
            #expect(again.header("Idempotent-Replayed") == "true")
            #expect(try await service.count("Note") == 1 + 4 + 2)
        }
    }
}
