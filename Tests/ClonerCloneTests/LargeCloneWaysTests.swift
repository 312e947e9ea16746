import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// Large clones walked by the model's ways (a join per way on PostgreSQL, a statement per way on
/// SQLite, once the root's objects along its own ways reach 1,000) find what the level walk and
/// the recursion find, with the same parents and the same places in the originals' lists.
@Suite struct LargeCloneWaysTests {
    /// A large clone walked by its ways down the model still tells which copies join an
    /// original's list at its end (rule 7): a memo of another note, reached only through an item
    /// data of the cloned one, is copied with its attachment into that note's memos after the
    /// memo itself, while every other memo's copy joins the clone's list.
    @Test(arguments: StoreBackendKind.available)
    func aLargeCloneOfAMemoFromAnotherNoteAppendsItsCopyToThatNote(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let large = try fixture.makeSampleNote(name: "Large", items: 600)
        let other = try fixture.makeSampleNote(name: "Other", items: 1)
        let attachment = try fixture.insert([
            ChangeSet.Insert(
                entity: "Attachment", attributes: ["image": .binary(Data([1, 2, 3]))], relationships: ["memo": .toOne(.existing(other.memos[0]))])
        ])[0]
        let store = fixture.store
        _ = try store.write {
            try $0.save(
                ChangeSet(updates: [
                    ChangeSet.Update(entity: "ItemData", id: large.itemDatas[5], relationships: ["memo": .toOne(.existing(other.memos[0]))])
                ]))
        }
        let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: large.note, returnIDs: true))
        #expect(result.created["Memo"] == 601)
        #expect(result.ids?["Attachment"]?[attachment] != nil, "the memo's attachment, found through its item data only")
        let copy = try #require(result.ids?["Memo"]?[other.memos[0]])
        #expect(try fixture.toMany("Note", other.note, "memos") == [other.memos[0], copy])
        #expect(try fixture.toMany("Note", result.clone.id, "memos") == large.memos.map { result.ids?["Memo"]?[$0] ?? -1 })
    }

    /// The root of a large clone walked by its ways joins its original's list at its end, as a
    /// small one does: an item of 1,100 item data, cloned, is its note's last item.
    @Test(arguments: StoreBackendKind.available)
    func aLargeCloneOfAnItemJoinsItsNotesListAtItsEnd(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let note = try fixture.makeSampleNote(name: "Host", items: 2)
        let data = (0..<1_100).map { index in
            ChangeSet.Insert(
                entity: "ItemData", attributes: ["createDate": .date(millisecondsSince1970: 1_600_000_000_000), "value": .double(Double(index))],
                relationships: ["item": .toOne(.existing(note.items[0]))])
        }
        _ = try fixture.insert(data)
        let result = try fixture.engine.clone(CloneRequest(entity: "Item", id: note.items[0]))
        #expect(result.created["ItemData"] == 1_101 && result.created["Memo"] == 1)
        #expect(try fixture.toMany("Note", note.note, "items") == note.items + [result.clone.id])
    }

    /// A walk by ways keeps the object limit: the 600-item note (1,802 objects) is refused under
    /// 1,801, and under 1,000, with nothing written, and copied whole at its size.
    @Test(arguments: StoreBackendKind.available)
    func aLargeCloneByWaysKeepsTheObjectLimit(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let sample = try fixture.makeSampleNote(name: "Large", items: 600)
        let objects = 2 + 3 * 600
        let rows = try fixture.rowCounts()
        for limit in [objects - 1, 1_000] {
            #expect {
                try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, maximumObjects: limit))
            } throws: { error in
                guard case CloneError.tooLarge(let found, limit) = error else { return false }
                return found > limit
            }
        }
        #expect(try fixture.rowCounts() == rows)
        let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, maximumObjects: objects))
        #expect(result.created == ["Note": 1, "NoteDescription": 1, "Item": 600, "ItemData": 600, "Memo": 600])
    }

    /// A large clone steps the version of every shared object it links, once, as a small one
    /// does: the tags of the 600-item note's memos gain 600 memos each and change, whatever
    /// becomes of the clone's work tables before its commit.
    @Test(arguments: StoreBackendKind.available)
    func aLargeCloneStepsTheVersionsOfTheObjectsItLinks(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let tags = try fixture.makeTags(["x", "y"])
        let sample = try fixture.makeSampleNote(name: "Large", items: 600, tags: tags)
        let before = try tags.map { try fixture.object("Tag", $0).version }
        let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note))
        #expect(result.linked == ["Tag": 2])
        #expect(try tags.map { try fixture.object("Tag", $0).version } == before.map { $0 + 1 })
        #expect(try fixture.toMany("Tag", tags[0], "memos").count == 1_200)
    }
}
