import ClonerService
import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// A model version that renames an entity and its relationships through their Renaming IDs — as a
/// model file and as Xcode saves a Core Data model (Tests/Fixtures/CoreData/Journal.xcdatamodeld):
/// the records written before are read, listed, filtered and cloned under the new names, with
/// their links and lineage, and the start after plans nothing.
@Suite("Service: entities and relationships renamed through their Renaming ID")
struct RenamingIDServiceTests {
    typealias F = EndToEndFixture

    /// Notes in an ordered folder, with tags (many-to-many) and related notes (ordered, no inverse).
    /// Under the old model: two tags, a folder, and note "one" in the folder, tagged with both and
    /// related to note "two" — every kind of relationship the renames touch.
    static func seed(_ client: ServiceClient) async throws -> (red: Int, blue: Int, folder: Int, two: Int, one: Int) {
        let red = try await client.createdID("tags", #"{"label": "red"}"#)
        let blue = try await client.createdID("tags", #"{"label": "blue"}"#)
        let folder = try await client.createdID("folders", #"{"name": "inbox"}"#)
        let two = try await client.createdID("notes", #"{"title": "two"}"#)
        let one = try await client.createdID("notes", #"{"title": "one", "folder": \#(folder), "tags": [\#(red), \#(blue)], "related": [\#(two)]}"#)
        return (red, blue, folder, two, one)
    }

    static let before = """
        { "entities": [
          { "name": "Folder", "attributes": [ { "name": "name", "type": "string", "optional": true } ],
            "relationships": [ { "name": "notes", "destination": "Note", "toMany": true, "ordered": true, "inverse": "folder" } ] },
          { "name": "Note", "attributes": [ { "name": "title", "type": "string", "optional": true } ],
            "relationships": [
              { "name": "folder", "destination": "Folder", "inverse": "notes" },
              { "name": "tags", "destination": "Tag", "toMany": true, "inverse": "notes" },
              { "name": "related", "destination": "Note", "toMany": true, "ordered": true } ] },
          { "name": "Tag", "attributes": [ { "name": "label", "type": "string", "optional": true } ],
            "relationships": [ { "name": "notes", "destination": "Note", "toMany": true, "inverse": "tags" } ] } ] }
        """

    /// Note is Memo now; folder is parent, tags labels, related seeAlso, the inverses memos.
    static let after = """
        { "entities": [
          { "name": "Folder", "attributes": [ { "name": "name", "type": "string", "optional": true } ],
            "relationships": [ { "name": "memos", "destination": "Memo", "toMany": true, "ordered": true, "inverse": "parent", "renamingID": "notes" } ] },
          { "name": "Memo", "renamingID": "Note", "attributes": [ { "name": "title", "type": "string", "optional": true } ],
            "relationships": [
              { "name": "parent", "destination": "Folder", "inverse": "memos", "renamingID": "folder" },
              { "name": "labels", "destination": "Tag", "toMany": true, "inverse": "memos", "renamingID": "tags" },
              { "name": "seeAlso", "destination": "Memo", "toMany": true, "ordered": true, "renamingID": "related" } ] },
          { "name": "Tag", "attributes": [ { "name": "label", "type": "string", "optional": true } ],
            "relationships": [ { "name": "memos", "destination": "Memo", "toMany": true, "inverse": "labels", "renamingID": "notes" } ] } ] }
        """

    enum ModelForm: String, CaseIterable, CustomTestStringConvertible {
        case modelFile, coreData
        var testDescription: String { rawValue }

        /// The model paths before and after the renames.
        func paths(in directory: TemporaryDirectory) throws -> (before: String, after: String) {
            switch self {
            case .modelFile:
                return (
                    try directory.write(RenamingIDServiceTests.before, to: "before.json"), try directory.write(RenamingIDServiceTests.after, to: "after.json")
                )
            case .coreData:
                let bundle = repositoryRoot.appendingPathComponent("Tests/Fixtures/CoreData/Journal.xcdatamodeld")
                return (bundle.appendingPathComponent("Journal.xcdatamodel").path, bundle.path)
            }
        }
    }

    static func ids(_ answer: [String: Any]) throws -> [Int] {
        try #require(answer["data"] as? [[String: Any]]).compactMap { F.int($0["_id"]) }
    }

    @Test("rows, links and lineage under the new names", arguments: StoreBackendKind.available, ModelForm.allCases)
    func renamedRecordsAreReadListedFilteredAndCloned(_ backend: StoreBackendKind, _ form: ModelForm) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (before, after) = try form.paths(in: directory)

        let first = try await TestService.start(directory: directory.url, backend: backend, overrides: .init(modelPath: before))
        let database = first.databaseLocation
        let shared = backend == .postgreSQL ? database : nil
        let client = first.client
        let (red, blue, folder, _, one) = try await RenamingIDServiceTests.seed(client)
        let copied = try await client.post("/notes/\(one)/clone", #"{"returnIds": true}"#)
        #expect(copied.status == 201, "\(copied.text)")
        let earlierClone = try copied.cloneID()
        await first.stop()

        let second = try await TestService.start(directory: directory.url, backend: backend, overrides: .init(modelPath: after), sharedDatabase: shared)
        let migrated = try #require(MigrationLogServiceTests.line(second, "store migrated"), "no migration line: \(second.log.text)")
        #expect((migrated["steps"] as? String)?.contains(#"RENAME TO "Memo""#) == true, "\(migrated)")
        let renamed = second.client
        let memo = try await renamed.get("/memos/\(one)").json()
        #expect(memo["title"] as? String == "one" && F.int(memo["parent"]) == folder, "\(memo)")
        #expect(Set(F.ints(memo["labels"]) ?? []) == [red, blue], "\(memo)")
        #expect(F.ints(memo["seeAlso"])?.count == 1, "\(memo)")
        #expect(try await renamed.get("/notes/\(one)").status == 404, "the old collection is gone")
        #expect(F.ints(try await renamed.get("/folders/\(folder)").json()["memos"]) == [one, earlierClone])

        #expect(Set(try Self.ids(try await renamed.get("/memos?where.title=one").json())) == [one, earlierClone])
        #expect(Set(try Self.ids(try await renamed.get("/memos?where.parent=\(folder)").json())) == [one, earlierClone])
        let clones = try #require(try await renamed.get("/memos/\(one)/clones").json()["data"] as? [[String: Any]])
        #expect(clones.compactMap { F.int($0["id"]) } == [earlierClone], "the lineage follows the entity")

        let dry = try await renamed.post("/memos/\(one)/clone", #"{"dryRun": true}"#)
        #expect(dry.status == 200, "\(dry.text)")
        let cloned = try await renamed.post("/memos/\(one)/clone", #"{"returnIds": true}"#)
        #expect(cloned.status == 201, "\(cloned.text)")
        #expect(F.counts(try dry.json()["created"]) == F.counts(try cloned.json()["created"]), "the dry run agrees: \(dry.text)")
        #expect(F.counts(try cloned.json()["linked"]) == ["Folder": 1, "Tag": 2], "\(cloned.text)")
        let cloneID = try cloned.cloneID()
        let clone = try await renamed.get("/memos/\(cloneID)").json()
        #expect(F.int(clone["parent"]) == folder && Set(F.ints(clone["labels"]) ?? []) == [red, blue], "the clone shares the links: \(clone)")
        #expect(Set(F.ints(try await renamed.get("/tags/\(blue)").json()["memos"]) ?? []) == [one, earlierClone, cloneID])

        // A graph exported under the new names comes back in as a new memo with its links (its
        // folder and tags made anew: they have no natural key to be found by).
        let document = try await renamed.get("/memos/\(one)/export")
        #expect(document.status == 200 && document.text.contains(#""Memo""#), "\(document.text.prefix(400))")
        let imported = try await renamed.importGraph("memos", document.text, query: "createMissing=true")
        #expect(imported.status == 201, "\(imported.text)")
        let importedID = try imported.cloneID()
        let importedMemo = try await renamed.get("/memos/\(importedID)").json()
        #expect(importedMemo["title"] as? String == "one" && F.ints(importedMemo["labels"])?.count == 2, "\(importedMemo)")
        #expect(F.int(importedMemo["parent"]) != nil && F.ints(importedMemo["seeAlso"])?.count == 1, "\(importedMemo)")
        await second.stop()

        let third = try await TestService.start(directory: directory.url, backend: backend, overrides: .init(modelPath: after), sharedDatabase: shared)
        #expect(MigrationLogServiceTests.line(third, "store migrated") == nil, "\(third.log.text)")
        #expect(try await third.client.get("/memos/\(cloneID)").status == 200)
        await third.stop()
    }
}
