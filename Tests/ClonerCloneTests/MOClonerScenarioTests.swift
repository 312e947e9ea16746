import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// MOCloner's own test scenarios, on the sample model.
@Suite struct MOClonerScenarioTests {
    @Test(arguments: StoreBackendKind.available) func singleObjectGetsFreshIdentityAndTimestampAndCopiedValues(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let note = try fixture.insert([
            ChangeSet.Insert(
                entity: "Note",
                attributes: [
                    "id": .uuid(UUID()), "name": .string("solo"), "createDate": .date(millisecondsSince1970: 1_000),
                    "index": .integer(9), "data": .binary(Data([9, 8, 7])), "isPinned": .boolean(true), "shareLink": .string("https://s"),
                ])
        ])[0]
        let before = Date()
        let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: note))
        let original = try fixture.object("Note", note)
        let clone = try fixture.object("Note", result.clone.id)
        #expect(result.clone.id != note)
        #expect(result.created == ["Note": 1])
        #expect(result.linked.isEmpty)
        #expect(clone.attributes["id"] != original.attributes["id"], "rebuild: uuid")
        guard case .date(let stamp)? = clone.attributes["createDate"] else { Issue.record("no date"); return }
        #expect(stamp >= Int64(before.timeIntervalSince1970 * 1000) - 1, "rebuild: now")
        for copied in ["name", "index", "data", "isPinned", "settings"] {
            #expect(clone.attributes[copied] == original.attributes[copied], "\(copied) is copied")
        }
        #expect(clone.attributes["shareLink"] == .null, "userInfo exclude")
        #expect(clone.version == 1)
    }

    @Test(arguments: StoreBackendKind.available) func oneToManyWithFollowParent(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let sample = try fixture.makeSampleNote(items: 3)
        let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note))
        let clone = try fixture.object("Note", result.clone.id)
        let cloneItems = try fixture.toMany("Note", result.clone.id, "items")
        #expect(cloneItems.count == 3)
        #expect(Set(cloneItems).isDisjoint(with: sample.items))
        for (index, item) in cloneItems.enumerated() {
            let object = try fixture.object("Item", item)
            #expect(object.attributes["name"] == .string("item \(index)"), "order kept")
            #expect(object.attributes["noteID"] == clone.attributes["id"], "followParent takes the clone's rebuilt id")
            #expect(object.relationships["note"] == .toOne(result.clone.id))
        }
        #expect(try fixture.toMany("Note", sample.note, "items") == sample.items, "original untouched")
    }

    @Test(arguments: StoreBackendKind.available) func oneToOneIsCopied(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let sample = try fixture.makeSampleNote(items: 0)
        let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note))
        let description = try #require(try fixture.toOne("Note", result.clone.id, "noteDescription"))
        #expect(description != sample.description)
        #expect(try fixture.object("NoteDescription", description).attributes["content"] == .string("about Groceries"))
        #expect(try fixture.toOne("NoteDescription", description, "note") == result.clone.id)
        #expect(try fixture.toOne("Note", sample.note, "noteDescription") == sample.description)
    }

    @Test(arguments: StoreBackendKind.available) func manyToOneSharedTagsGainTheClones(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let tags = try fixture.makeTags(["home", "work"])
        let sample = try fixture.makeSampleNote(items: 2, tags: tags)
        let tagVersion = try fixture.object("Tag", tags[0]).version
        let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, returnIDs: true))
        #expect(result.created["Tag"] == nil, "tags are shared, not copied")
        #expect(result.linked == ["Tag": 2])
        let cloneMemos = sample.memos.map { result.ids!["Memo"]![$0]! }
        for memo in cloneMemos {
            #expect(Set(try fixture.toMany("Memo", memo, "tags")) == Set(tags))
        }
        for tag in tags {
            #expect(Set(try fixture.toMany("Tag", tag, "memos")) == Set(sample.memos + cloneMemos), "each tag gains the clones")
        }
        #expect(try fixture.object("Tag", tags[0]).version == tagVersion + 1, "a tag whose list changed moves its version")
    }

    @Test(arguments: StoreBackendKind.available) func manyToManySplitByExcludingTheRelationship(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let tags = try fixture.makeTags(["a", "b"])
        let sample = try fixture.makeSampleNote(items: 1, tags: tags)
        let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, exclude: ["Memo.tags"], returnIDs: true))
        let memoClone = result.ids!["Memo"]![sample.memos[0]]!
        #expect(try fixture.toMany("Memo", memoClone, "tags").isEmpty)
        #expect(try fixture.toMany("Memo", sample.memos[0], "tags") == tags.sorted())
        #expect(result.linked.isEmpty)
    }

    @Test(arguments: StoreBackendKind.available) func orderedMemosKeepTheirOrder(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let sample = try fixture.makeSampleNote(items: 4)
        let shuffled = [sample.memos[2], sample.memos[0], sample.memos[3], sample.memos[1]]
        try fixture.store.write { context in
            _ = try context.save(
                ChangeSet(updates: [ChangeSet.Update(entity: "Note", id: sample.note, relationships: ["memos": .toMany(shuffled.map { .existing($0) })])]))
        }
        let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, returnIDs: true))
        let expected = shuffled.map { result.ids!["Memo"]![$0]! }
        #expect(try fixture.toMany("Note", result.clone.id, "memos") == expected)
    }

    @Test(arguments: StoreBackendKind.available) func cloneFromTheMiddleWithNoteExcludedBlanksTheFollowedValue(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let sample = try fixture.makeSampleNote(items: 2)
        let result = try fixture.engine.clone(CloneRequest(entity: "Item", id: sample.items[1], exclude: ["note"]))
        let clone = try fixture.object("Item", result.clone.id)
        #expect(clone.attributes["noteID"] == .null, "withoutParent: blank")
        #expect(clone.relationships["note"] == .toOne(nil), "excluded")
        #expect(result.created == ["Item": 1, "ItemData": 1, "Memo": 1])
        #expect(try fixture.toMany("Note", sample.note, "items") == sample.items)
    }

    @Test(arguments: StoreBackendKind.available) func cloneFromTheMiddleKeepsTheValueWithWithoutParentKeep(_ backend: StoreBackendKind) throws {
        var text = try String(contentsOf: CloneFixture.sampleModelURL, encoding: .utf8)
        text = text.replacingOccurrences(of: #""withoutParent": "blank""#, with: #""withoutParent": "keep""#)
        let fixture = try CloneFixture(modelJSON: text, backend)
        let sample = try fixture.makeSampleNote(items: 2)
        let noteUUID = try fixture.object("Note", sample.note).attributes["id"]
        let result = try fixture.engine.clone(CloneRequest(entity: "Item", id: sample.items[0], exclude: ["note"]))
        #expect(try fixture.object("Item", result.clone.id).attributes["noteID"] == noteUUID)
    }

    @Test(arguments: StoreBackendKind.available) func itemClonedWithoutExclusionJoinsTheOriginalNoteAtTheEnd(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let sample = try fixture.makeSampleNote(items: 3)
        let noteVersion = try fixture.object("Note", sample.note).version
        let result = try fixture.engine.clone(CloneRequest(entity: "Item", id: sample.items[0], returnIDs: true))
        #expect(try fixture.toMany("Note", sample.note, "items") == sample.items + [result.clone.id])
        #expect(result.linked == ["Note": 1])
        #expect(try fixture.object("Note", sample.note).version == noteVersion + 1)
        // The item's memo, reached through its data rather than the note's list, joins the
        // original note's memos at the end too, after the note's own.
        let memoCopy = try #require(result.ids?["Memo"]?[sample.memos[0]])
        #expect(try fixture.toMany("Note", sample.note, "memos") == sample.memos + [memoCopy])
    }
}
