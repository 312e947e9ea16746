import ClonerService
import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// The service run on a Core Data model as Xcode saves it (Tests/Fixtures/CoreData), with
/// MOCloner's clone rules in user info, and MOCloner's own scenarios over HTTP.
@Suite("Service: a Core Data model and MOCloner's scenarios")
struct CoreDataServiceTests {
    typealias F = EndToEndFixture

    static let bundle = repositoryRoot.appendingPathComponent("Tests/Fixtures/CoreData/Notes.xcdatamodeld")

    static func withService(_ body: (TestService) async throws -> Void) async throws {
        try await TestService.withService(overrides: .init(modelPath: bundle.path)) { try await body($0) }
    }

    /// The commands run the `cloner` executable; the answers come from the service in process.
    @Test("check-model and import-model read the .xcdatamodeld; the imported file serves the same GET /model")
    func commandsReadTheBundle() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let check = try await ServiceProcess.run(["check-model", Self.bundle.path], in: folder.url)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("valid — 7 entities"), "\(check.stdout)")

        let imported = try await ServiceProcess.run(["import-model", Self.bundle.path], in: folder.url)
        #expect(imported.status == 0, "\(imported.stderr)")
        let file = try folder.write(imported.stdout, to: "model.json")
        let fromCoreData = try await Self.modelAnswer(modelPath: Self.bundle.path)
        let fromFile = try await Self.modelAnswer(modelPath: file)
        #expect(fromFile == fromCoreData, "GET /model differs between the Core Data model and its imported file")

        let refused = try await ServiceProcess.run(["import-model", repositoryRoot.appendingPathComponent("config/model.json").path], in: folder.url)
        #expect(refused.status == 1 && refused.stderr.contains("not a Core Data model"), "\(refused.stderr)")
    }

    static func modelAnswer(modelPath: String) async throws -> String {
        try await TestService.withService(overrides: .init(modelPath: modelPath)) { service in
            try await service.client.get("/model").text
        }
    }

    @Test("a note clone: noteID follows the rebuilt id, the excluded index takes its default, tags are shared and gain the clones, 30 memos keep their order")
    func noteClone() async throws {
        try await Self.withService { service in
            let client = service.client
            let tag = try await client.createdID("toonetags", #"{"name": "inbox"}"#)
            let red = try await client.createdID("tomanytags", #"{"name": "red", "color": "warm"}"#)
            let blue = try await client.createdID("tomanytags", #"{"name": "blue", "color": "cold"}"#)
            let memos = (0..<30).map { #"{"text": "memo \#($0)", "position": \#($0)}"# }.joined(separator: ",")
            let note = try await client.create(
                "notes",
                """
                {"id": "6f1c1b2e-8f0a-4d5e-9a7b-2c3d4e5f6a7b", "name": "Groceries", "createDate": "2026-11-21T10:00:00Z", "index": 7,
                 "toOneTag": \(tag), "noteDescription": {"content": "about groceries"},
                 "items": [{"name": "milk", "noteID": "6f1c1b2e-8f0a-4d5e-9a7b-2c3d4e5f6a7b", "toManyTags": [\(red), \(blue)], "detail": {"text": "2 l"}},
                           {"name": "eggs", "noteID": "6f1c1b2e-8f0a-4d5e-9a7b-2c3d4e5f6a7b", "toManyTags": [\(red)], "detail": {"text": "12"}}],
                 "memos": [\(memos)]}
                """)
            let noteID = try #require(F.int(note["_id"]))
            let originalItems = try #require(F.ints(note["items"]))

            let answer = try await client.post("/notes/\(noteID)/clone", #"{"returnIds": true}"#)
            #expect(answer.status == 201, "\(answer.text)")
            let result = try answer.json()
            #expect(F.counts(result["created"]) == ["Note": 1, "Item": 2, "ItemDetail": 2, "Memo": 30, "NoteDescription": 1])
            #expect(F.counts(result["linked"]) == ["ToOneTag": 1, "ToManyTag": 2])
            let cloneID = try #require(F.int((result["clone"] as? [String: Any])?["id"]))

            let clone = try await client.get("/notes/\(cloneID)").json()
            #expect(clone["index"] as? Int == 0, "excluded in user info: the default")
            #expect(try await client.get("/notes/\(noteID)").json()["index"] as? Int == 7, "the original keeps its value")
            let cloneUUID = try #require(clone["id"] as? String)
            #expect(cloneUUID != "6f1c1b2e-8f0a-4d5e-9a7b-2c3d4e5f6a7b", "rebuild: uuid")
            #expect(clone["toOneTag"] as? Int == tag)

            let cloneItems = try #require(F.ints(clone["items"]))
            #expect(cloneItems.count == 2 && Set(cloneItems).isDisjoint(with: originalItems))
            for (position, item) in cloneItems.enumerated() {
                let record = try await client.get("/items/\(item)").json()
                #expect(record["noteID"] as? String == cloneUUID, "followParent takes the clone's rebuilt id")
                #expect(record["name"] as? String == ["milk", "eggs"][position], "ordered items keep their order")
                let detail = try #require(F.int(record["detail"]))
                #expect(try await client.get("/itemdetails/\(detail)").json()["text"] as? String == ["2 l", "12"][position])
            }
            let cloneMemos = try #require(F.ints(clone["memos"]))
            var texts: [String] = []
            for memo in cloneMemos { texts.append(try await client.get("/memos/\(memo)").json()["text"] as? String ?? "") }
            #expect(texts == (0..<30).map { "memo \($0)" }, "thirty ordered memos keep their order")

            let tagRecord = try await client.get("/toonetags/\(tag)").json()
            #expect(Set(F.ints(tagRecord["notes"]) ?? []) == [noteID, cloneID], "the to-one tag gains the clone")
            let redItems = Set(F.ints(try await client.get("/tomanytags/\(red)").json()["items"]) ?? [])
            #expect(redItems == Set(originalItems + cloneItems), "the to-many tag gains both item clones")
            let blueItems = Set(F.ints(try await client.get("/tomanytags/\(blue)").json()["items"]) ?? [])
            #expect(blueItems == [originalItems[0], cloneItems[0]])
        }
    }

    @Test("an item cloned from the middle with note excluded: no note, noteID blank, its inverse-less detail copied")
    func itemFromTheMiddle() async throws {
        try await Self.withService { service in
            let client = service.client
            let note = try await client.create(
                "notes",
                """
                {"id": "0f8fad5b-d9cb-469f-a165-70867728950e", "createDate": "2026-11-21T10:00:00Z",
                 "items": [{"name": "a", "noteID": "0f8fad5b-d9cb-469f-a165-70867728950e"},
                           {"name": "b", "noteID": "0f8fad5b-d9cb-469f-a165-70867728950e", "detail": {"text": "middle"}},
                           {"name": "c", "noteID": "0f8fad5b-d9cb-469f-a165-70867728950e"}]}
                """)
            let items = try #require(F.ints(note["items"]))
            let answer = try await client.post("/items/\(items[1])/clone", #"{"exclude": ["note"]}"#)
            #expect(answer.status == 201, "\(answer.text)")
            #expect(F.counts(try answer.json()["created"]) == ["Item": 1, "ItemDetail": 1])
            let cloneID = try answer.cloneID()
            let clone = try await client.get("/items/\(cloneID)").json()
            #expect(clone["note"] is NSNull && clone["noteID"] is NSNull, "withoutParent: blank")
            let detail = try #require(F.int(clone["detail"]))
            #expect(try await client.get("/itemdetails/\(detail)").json()["text"] as? String == "middle")
            #expect(F.ints(try await client.get("/notes/\(F.int(note["_id"])!)").json()["items"]) == items, "the original note is untouched")
        }
    }

    @Test("a parent whose entity lacks the followed attribute counts as no parent: items copied with a to-one tag get withoutParent's blank")
    func parentWithoutTheFollowedAttribute() async throws {
        try await Self.withService { service in
            let client = service.client
            let tag = try await client.create(
                "toonetags",
                """
                {"name": "owner", "items": [{"name": "x", "noteID": "6f1c1b2e-8f0a-4d5e-9a7b-2c3d4e5f6a7b"}]}
                """)
            let tagID = try #require(F.int(tag["_id"]))
            let answer = try await client.post("/toonetags/\(tagID)/clone", #"{"set": {"name": "owner (copy)"}}"#)
            #expect(answer.status == 201, "\(answer.text)")
            let cloneID = try answer.cloneID()
            let cloneItems = try #require(F.ints(try await client.get("/toonetags/\(cloneID)").json()["items"]))
            #expect(cloneItems.count == 1)
            let item = try await client.get("/items/\(cloneItems[0])").json()
            #expect(item["noteID"] is NSNull, "ToOneTag has no id to follow: withoutParent blank")
            #expect(item["name"] as? String == "x")
        }
    }
}
