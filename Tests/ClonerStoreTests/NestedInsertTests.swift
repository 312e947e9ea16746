import ClonerModel
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// Inserts whose links point at other inserts of the same change set: the rows carry their
/// parent's `_id` and position from the start, with the same outcome the edit-by-edit path gives.
@Suite struct NestedInsertTests {
    @Test(arguments: StoreBackendKind.available) func nestedListsAndOneToOneAreLinkedInOrderWithVersionOne(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        let count = 5000
        var inserts = [StoreFixtures.note("parent")]
        inserts[0].relationships["items"] = .toMany((1...count).map { .inserted($0) })
        inserts[0].relationships["noteDescription"] = .toOne(.inserted(count + 1))
        for index in 0..<count { inserts.append(ChangeSet.Insert(entity: "Item", attributes: ["name": .string("item \(index)")])) }
        inserts.append(ChangeSet.Insert(entity: "NoteDescription", attributes: ["text": .string("about")]))
        let ids = try store.write { try $0.save(ChangeSet(inserts: inserts)).insertedIDs }
        let note = try #require(try store.read { try $0.fetchObject(entity: "Note", id: ids[0]) })
        #expect(note.relationships["items"] == .toMany(Array(ids[1...count])))
        #expect(note.relationships["noteDescription"] == .toOne(ids[count + 1]))
        #expect(note.version == 1)
        let items = try store.read { try $0.fetchObjects(entity: "Item", ids: Array(ids[1...count])) }
        #expect(items.allSatisfy { $0.relationships["note"] == .toOne(ids[0]) && $0.version == 1 })
        #expect(items.map { $0.attributes["name"] } == (0..<count).map { .string("item \($0)") })
        let description = try #require(try store.read { try $0.fetchObject(entity: "NoteDescription", id: ids[count + 1]) })
        #expect(description.relationships["note"] == .toOne(ids[0]))
    }

    @Test(arguments: StoreBackendKind.available) func anInsertNamedByTwoEditsEndsWhereTheLastEditPutsIt(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        let existing = try store.write {
            try $0.save(ChangeSet(inserts: [ChangeSet.Insert(entity: "Item", attributes: ["name": .string("old")])])).insertedIDs[0]
        }
        var first = StoreFixtures.note("first")
        first.relationships["items"] = .toMany([.inserted(2), .inserted(3)])
        var second = StoreFixtures.note("second")
        // Mixes an existing item with a new one already listed by the first note: the second wins.
        second.relationships["items"] = .toMany([.existing(existing), .inserted(3)])
        let ids = try store.write { context in
            try context.save(
                ChangeSet(inserts: [
                    first, second,
                    ChangeSet.Insert(entity: "Item", attributes: ["name": .string("a")]),
                    ChangeSet.Insert(entity: "Item", attributes: ["name": .string("b")]),
                ])
            ).insertedIDs
        }
        let notes = try store.read { try $0.fetchObjects(entity: "Note", ids: [ids[0], ids[1]]) }
        #expect(notes[0].relationships["items"] == .toMany([ids[2]]))
        #expect(notes[1].relationships["items"] == .toMany([existing, ids[3]]))
        #expect(try store.read { try $0.fetchObject(entity: "Item", id: existing)?.version } == 2, "the existing item changed")
    }

    @Test(arguments: StoreBackendKind.available) func aRequiredRelationshipMissingOnAnyNewObjectFailsTheWholeSave(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let model = DataModel(entities: [
            EntityDescription(
                name: "Box", attributes: [],
                relationships: [
                    RelationshipDescription(name: "parts", destination: "Part", isToMany: true, inverseName: "box", deleteRule: .cascade)
                ]),
            EntityDescription(
                name: "Part", attributes: [],
                relationships: [
                    RelationshipDescription(name: "box", destination: "Box", inverseName: "parts", isOptional: false)
                ]),
        ])
        let store = try StoreFixtures.openStore(place, model: model)
        var box = ChangeSet.Insert(entity: "Box")
        box.relationships["parts"] = .toMany([.inserted(1), .inserted(2)])
        let ids = try store.write { try $0.save(ChangeSet(inserts: [box, ChangeSet.Insert(entity: "Part"), ChangeSet.Insert(entity: "Part")])).insertedIDs }
        #expect(ids.count == 3)
        #expect(throws: StoreError.self) {
            try store.write {
                try $0.save(ChangeSet(inserts: [box, ChangeSet.Insert(entity: "Part"), ChangeSet.Insert(entity: "Part"), ChangeSet.Insert(entity: "Part")]))
            }
        }
        #expect(try store.read { try $0.fetchIDs(FetchRequest(entity: "Part")) }.count == 2, "nothing of the failed save was written")
    }
}
