import ClonerService
import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// A graph document exported before a model version renamed its entity and relationships
/// (`RenamingIDServiceTests.before` → `.after`) imports after it, into the renamed collection and
/// relationships; its dry run agrees; an old name two entities claim is refused naming both.
@Suite("Service: graph documents exported before a Renaming ID import after it")
struct RenamingIDImportServiceTests {
    typealias F = EndToEndFixture

    /// The renamed model with a second entity claiming Note's name: which one a Note is, is unknown.
    static let ambiguous = RenamingIDServiceTests.after.replacingOccurrences(
        of: #"{ "name": "Tag","#,
        with: #"{ "name": "Journal", "renamingID": "Note", "attributes": [ { "name": "title", "type": "string", "optional": true } ] },"#
            + #"{ "name": "Tag","#)

    @Test("an old document imports under the new names; the dry run agrees; an ambiguous old name is a 422", arguments: StoreBackendKind.available)
    func oldDocumentImportsIntoRenamedModel(_ backend: StoreBackendKind) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let before = try directory.write(RenamingIDServiceTests.before, to: "before.json")
        let after = try directory.write(RenamingIDServiceTests.after, to: "after.json")

        let first = try await TestService.start(directory: directory.url, backend: backend, overrides: .init(modelPath: before))
        let shared = backend == .postgreSQL ? first.databaseLocation : nil
        let client = first.client
        let (red, blue, folder, two, one) = try await RenamingIDServiceTests.seed(client)
        let exported = try await client.get("/notes/\(one)/export")
        #expect(exported.status == 200, "\(exported.text)")
        let document = exported.text
        for oldName in [#""Note""#, #""folder""#, #""tags""#, #""related""#] {
            #expect(document.contains(oldName), "the document speaks of \(oldName): \(document.prefix(600))")
        }
        await first.stop()

        let second = try await TestService.start(directory: directory.url, backend: backend, overrides: .init(modelPath: after), sharedDatabase: shared)
        let renamed = second.client
        #expect(try await renamed.importGraph("notes", document, query: "createMissing=true").status == 404, "the old collection is gone")
        let dry = try await renamed.importGraph("memos", document, query: "createMissing=true&dryRun=true")
        #expect(dry.status == 200, "\(dry.text)")
        let imported = try await renamed.importGraph("memos", document, query: "createMissing=true&returnIds=true")
        #expect(imported.status == 201, "\(imported.text)")
        let created = F.counts(try imported.json()["created"])
        #expect(created == ["Memo": 2, "Folder": 1, "Tag": 2], "\(imported.text)")
        #expect(F.counts(try dry.json()["created"]) == created, "the dry run agrees: \(dry.text)")

        let memoID = try imported.cloneID()
        let memo = try await renamed.get("/memos/\(memoID)").json()
        #expect(memo["title"] as? String == "one", "\(memo)")
        let parent = try #require(F.int(memo["parent"]), "\(memo)")
        #expect(parent != folder, "a new folder: it has no natural key to be found by")
        #expect(F.ints(try await renamed.get("/folders/\(parent)").json()["memos"]) == [memoID], "the inverse arrived too")
        let labels = try #require(F.ints(memo["labels"]), "\(memo)")
        #expect(labels.count == 2 && Set(labels).isDisjoint(with: [red, blue]), "\(memo)")
        for label in labels {
            #expect(F.ints(try await renamed.get("/tags/\(label)").json()["memos"]) == [memoID])
        }
        let seeAlso = try #require(F.ints(memo["seeAlso"]), "\(memo)")
        #expect(seeAlso.count == 1 && seeAlso != [two], "\(memo)")
        #expect(try await renamed.get("/memos/\(seeAlso[0])").json()["title"] as? String == "two")
        await second.stop()

        // On a model where Memo and Journal both claim Note's name, the document's Note is neither.
        let elsewhere = try TemporaryDirectory()
        defer { elsewhere.remove() }
        let ambiguousModel = try elsewhere.write(Self.ambiguous, to: "ambiguous.json")
        #expect(Self.ambiguous.contains(#""Journal""#))
        let third = try await TestService.start(directory: elsewhere.url, backend: backend, overrides: .init(modelPath: ambiguousModel))
        for query in ["createMissing=true", "createMissing=true&dryRun=true"] {
            let refused = try await third.client.importGraph("memos", document, query: query)
            #expect(refused.status == 422, "\(query): \(refused.text)")
            #expect(F.errorFields(try refused.json()).contains("Note"), "\(query): \(refused.text)")
            #expect(refused.text.contains("Memo and Journal"), "\(query): \(refused.text)")
        }
        #expect(try await third.count("Memo") == 0, "nothing written")
        await third.stop()
    }
}
