import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// Relationship rule 8 (docs/architecture.md#set-on-the-root): `set` on a relationship of the root replaces the branch, is a
/// link that obeys ownership, and counts in `linked`.
@Suite struct CloneSetRuleTests {
    /// Cards linked by an inverse-less `next` (a cycle), and a Root whose two inverse-less to-ones
    /// may reach the same Leaf.
    static let model = """
        { "entities": [
          { "name": "Card", "attributes": [ { "name": "title", "type": "string" } ],
            "relationships": [ { "name": "next", "destination": "Card" } ] },
          { "name": "Root", "attributes": [ { "name": "title", "type": "string", "optional": true } ],
            "relationships": [
              { "name": "a", "destination": "Leaf" },
              { "name": "b", "destination": "Leaf" } ] },
          { "name": "Leaf", "attributes": [ { "name": "title", "type": "string", "optional": true } ],
            "relationships": [ { "name": "child", "destination": "Leaf" } ] }
        ] }
        """

    // MARK: Item 1: a set link never takes objects from their owner

    @Test(arguments: StoreBackendKind.available) func settingAToManyWhoseInverseIsToOneIsRefusedAndTheOriginalKeepsItsItems(_ backend: StoreBackendKind) throws
    {
        let fixture = try CloneFixture(backend)
        let sample = try fixture.makeSampleNote(items: 2)
        let before = try fixture.rowCounts()
        for name in ["items", "memos"] {
            let taken = name == "items" ? sample.items[0] : sample.memos[0]
            #expect {
                try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, setLinks: [name: [taken]]))
            } throws: { error in
                guard case CloneError.invalidRequest(let field, let message) = error else { return false }
                return field == "set.\(name)" && message.contains("Note.\(name)")
            }
        }
        #expect(try fixture.toMany("Note", sample.note, "items") == sample.items)
        #expect(try fixture.toMany("Note", sample.note, "memos") == sample.memos)
        #expect(try fixture.rowCounts() == before)
    }

    @Test(arguments: StoreBackendKind.available) func settingAOneToOneToAnotherOwnersObjectIsRefused(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let first = try fixture.makeSampleNote(items: 1)
        let second = try fixture.makeSampleNote(items: 1)
        #expect {
            try fixture.engine.clone(CloneRequest(entity: "Note", id: first.note, set: ["noteDescription": .integer(second.description)]))
        } throws: { error in
            guard case CloneError.invalidRequest("set.noteDescription", _) = error else { return false }
            return true
        }
        #expect(try fixture.toOne("NoteDescription", second.description, "note") == second.note)
    }

    @Test(arguments: StoreBackendKind.available) func anEmptyListOrNullTakesNothingAndIsAllowed(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let sample = try fixture.makeSampleNote(items: 2)
        let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, setLinks: ["items": []]))
        #expect(try fixture.toMany("Note", result.clone.id, "items").isEmpty)
        #expect(try fixture.toMany("Note", sample.note, "items") == sample.items)
    }

    // MARK: Item 2: the replaced branch is not copied

    @Test(arguments: StoreBackendKind.available) func settingTheDescriptionToNullCopiesNoDescription(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let sample = try fixture.makeSampleNote(items: 1)
        let before = try fixture.rowCounts()
        let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, set: ["noteDescription": .null]))
        #expect(result.created["NoteDescription"] == nil)
        #expect(try fixture.rowCounts()["NoteDescription"] == before["NoteDescription"])
        #expect(try fixture.toOne("Note", result.clone.id, "noteDescription") == nil)
        #expect(try fixture.toOne("Note", sample.note, "noteDescription") == sample.description)
    }

    @Test(arguments: StoreBackendKind.available) func aCycleCutBySetCopiesNothingBeyondTheRoot(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(modelJSON: CloneSetRuleTests.model, backend)
        let ids = try fixture.insert([
            ChangeSet.Insert(entity: "Card", attributes: ["title": .string("a")]),
            ChangeSet.Insert(entity: "Card", attributes: ["title": .string("b")], relationships: ["next": .toOne(.inserted(2))]),
            ChangeSet.Insert(entity: "Card", attributes: ["title": .string("c")], relationships: ["next": .toOne(.inserted(0))]),
        ])
        try fixture.store.write {
            _ = try $0.save(ChangeSet(updates: [ChangeSet.Update(entity: "Card", id: ids[0], relationships: ["next": .toOne(.existing(ids[1]))])]))
        }
        let whole = try fixture.engine.clone(CloneRequest(entity: "Card", id: ids[0], dryRun: true))
        #expect(whole.created == ["Card": 3], "without set the cycle is copied whole")

        let cut = try fixture.engine.clone(CloneRequest(entity: "Card", id: ids[0], set: ["next": .null]))
        #expect(cut.created == ["Card": 1])
        #expect(try fixture.ids("Card").count == 4)
        #expect(try fixture.toOne("Card", cut.clone.id, "next") == nil)

        let relinked = try fixture.engine.clone(CloneRequest(entity: "Card", id: ids[0], set: ["next": .integer(ids[2])]))
        #expect(relinked.created == ["Card": 1])
        #expect(relinked.linked == ["Card": 1])
        #expect(try fixture.toOne("Card", relinked.clone.id, "next") == ids[2])
        #expect(try fixture.ids("Card").count == 5)
    }

    @Test(arguments: StoreBackendKind.available) func anObjectAlsoReachableAnotherWayIsStillCopied(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(modelJSON: CloneSetRuleTests.model, backend)
        let ids = try fixture.insert([
            ChangeSet.Insert(entity: "Leaf", attributes: ["title": .string("shared")]),
            ChangeSet.Insert(entity: "Leaf", attributes: ["title": .string("only a")], relationships: ["child": .toOne(.inserted(0))]),
            ChangeSet.Insert(entity: "Root", attributes: [:], relationships: ["a": .toOne(.inserted(1)), "b": .toOne(.inserted(0))]),
        ])
        let result = try fixture.engine.clone(CloneRequest(entity: "Root", id: ids[2], set: ["a": .null], returnIDs: true))
        // Leaf 1 is reached only through `a`; Leaf 0 also through `b`.
        #expect(result.created == ["Root": 1, "Leaf": 1])
        #expect(result.ids?["Leaf"]?[ids[1]] == nil)
        let leafClone = try #require(result.ids?["Leaf"]?[ids[0]])
        #expect(try fixture.toOne("Root", result.clone.id, "b") == leafClone)
        #expect(try fixture.toOne("Root", result.clone.id, "a") == nil)
        #expect(try fixture.ids("Leaf").count == 3)
    }

    // MARK: Item 3: set links count in `linked`

    @Test(arguments: StoreBackendKind.available) func objectsLinkedBySetCountAsLinked(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let sample = try fixture.makeSampleNote(items: 1)
        let template = try fixture.makeSampleNote(name: "template", items: 0)
        let dry = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, set: ["template": .integer(template.note)], dryRun: true))
        #expect(dry.linked == ["Note": 1])
        let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, set: ["template": .integer(template.note)]))
        #expect(result.linked == ["Note": 1])
        #expect(try fixture.toOne("Note", result.clone.id, "template") == template.note)
    }

    @Test(arguments: StoreBackendKind.available) func anObjectLinkedBySetAndCopiedAnotherWayStillCountsAsLinked(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(modelJSON: CloneSetRuleTests.model, backend)
        let ids = try fixture.insert([
            ChangeSet.Insert(entity: "Leaf", attributes: ["title": .string("shared")]),
            ChangeSet.Insert(entity: "Leaf", attributes: ["title": .string("only a")]),
            ChangeSet.Insert(entity: "Root", attributes: [:], relationships: ["a": .toOne(.inserted(1)), "b": .toOne(.inserted(0))]),
        ])
        let result = try fixture.engine.clone(CloneRequest(entity: "Root", id: ids[2], set: ["a": .integer(ids[0])], returnIDs: true))
        #expect(result.created == ["Root": 1, "Leaf": 1])
        #expect(result.linked == ["Leaf": 1])
        #expect(try fixture.toOne("Root", result.clone.id, "a") == ids[0], "set links the original as given")
        #expect(try fixture.toOne("Root", result.clone.id, "b") == result.ids?["Leaf"]?[ids[0]])
    }

    @Test(arguments: StoreBackendKind.available) func objectsLinkedBySetOnAnInverselessToManyCountAsLinked(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(
            backend,
            modelJSON: """
                { "entities": [
                  { "name": "Shelf", "attributes": [ { "name": "title", "type": "string", "optional": true } ],
                    "relationships": [ { "name": "books", "destination": "Book", "toMany": true, "ordered": true } ] },
                  { "name": "Book", "attributes": [ { "name": "title", "type": "string", "optional": true } ] }
                ] }
                """)
        let ids = try fixture.insert([
            ChangeSet.Insert(entity: "Book", attributes: ["title": .string("one")]),
            ChangeSet.Insert(entity: "Book", attributes: ["title": .string("two")]),
            ChangeSet.Insert(entity: "Shelf", attributes: [:], relationships: ["books": .toMany([.inserted(0)])]),
        ])
        let result = try fixture.engine.clone(CloneRequest(entity: "Shelf", id: ids[2], setLinks: ["books": [ids[1], ids[0]]]))
        #expect(result.created == ["Shelf": 1], "the replaced list's books are not copied")
        #expect(result.linked == ["Book": 2])
        #expect(try fixture.toMany("Shelf", result.clone.id, "books") == [ids[1], ids[0]])
        #expect(try fixture.toMany("Shelf", ids[2], "books") == [ids[0]])
    }
}
