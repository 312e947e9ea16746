import ClonerModel
@testable import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

@Suite struct MigrationTests {
    @Test(arguments: StoreBackendKind.available) func addsOptionalAndDefaultedAttributesKeepingRows(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let id = try StoreFixtures.openStore(place).write { try $0.save(ChangeSet(inserts: [StoreFixtures.note("old")])).insertedIDs[0] }
        let grown = StoreFixtures.notesModel(extraNoteAttributes: [
            AttributeDescription(name: "color", type: .string, isOptional: true),
            AttributeDescription(name: "pinned", type: .boolean, defaultValue: .boolean(true)),
        ])
        let store = try StoreFixtures.openStore(place, model: grown)
        let note = try #require(try store.read { try $0.fetchObject(entity: "Note", id: id) })
        #expect(note.attributes["name"] == .string("old"))
        #expect(note.attributes["color"] == .null)
        #expect(note.attributes["pinned"] == .boolean(true), "existing rows take the new attribute's default")
    }

    @Test(arguments: StoreBackendKind.available) func renamesAColumnThroughOriginalName(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let id = try StoreFixtures.openStore(place).write {
            try $0.save(ChangeSet(inserts: [StoreFixtures.note("renamed", index: 7)])).insertedIDs[0]
        }
        let store = try StoreFixtures.openStore(place, model: StoreFixtures.notesModel(renameIndex: true))
        let note = try #require(try store.read { try $0.fetchObject(entity: "Note", id: id) })
        #expect(note.attributes["position"] == .integer(7))
        #expect(note.attributes["index"] == nil)
    }

    @Test(arguments: StoreBackendKind.available) func addsANewEntityAndRelationship(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        _ = try StoreFixtures.openStore(place).write { try $0.save(ChangeSet(inserts: [StoreFixtures.note("n")])) }
        var entities = StoreFixtures.notesModel().entities
        let noteIndex = entities.firstIndex { $0.name == "Note" }!
        entities[noteIndex] = EntityDescription(
            name: "Note", attributes: entities[noteIndex].attributes,
            relationships: entities[noteIndex].relationships + [
                RelationshipDescription(name: "comments", destination: "Comment", isToMany: true, isOrdered: true, inverseName: "note", deleteRule: .cascade)
            ])
        entities.append(
            EntityDescription(
                name: "Comment", attributes: [AttributeDescription(name: "body", type: .string)],
                relationships: [
                    RelationshipDescription(name: "note", destination: "Note", inverseName: "comments")
                ]))
        let store = try StoreFixtures.openStore(place, model: DataModel(entities: entities))
        let ids = try store.write { context in
            try context.save(
                ChangeSet(inserts: [
                    ChangeSet.Insert(entity: "Comment", attributes: ["body": .string("hi")], relationships: ["note": .toOne(.existing(1))])
                ])
            ).insertedIDs
        }
        let note = try store.read { try $0.fetchObject(entity: "Note", id: 1) }
        #expect(note?.relationships["comments"] == .toMany(ids))
    }

    @Test(arguments: StoreBackendKind.available) func refusesUnsafeChangesWithReasons(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        var note = StoreFixtures.note("n")
        note.attributes["data"] = .binary(Data([1, 2, 3]))  // a removed attribute that holds a value
        _ = try StoreFixtures.openStore(place).write { try $0.save(ChangeSet(inserts: [note])) }
        var entities = StoreFixtures.notesModel().entities
        let noteIndex = entities.firstIndex { $0.name == "Note" }!
        var attributes = entities[noteIndex].attributes.filter { $0.name != "data" }  // removed
        attributes[attributes.firstIndex { $0.name == "index" }!].type = .string  // type change
        attributes.append(AttributeDescription(name: "owner", type: .string))  // required, no default
        entities[noteIndex] = EntityDescription(name: "Note", attributes: attributes, relationships: entities[noteIndex].relationships)
        #expect {
            try StoreFixtures.openStore(place, model: DataModel(entities: entities))
        } throws: { error in
            guard case StoreError.migrationRefused(let reasons) = error else { return false }
            let text = reasons.joined(separator: "\n")
            return reasons.count == 3 && text.contains("Note.data: attribute was removed (or renamed without originalName), but 1 row holds a value")
                && text.contains("Note.index: type changed from integer to string") && text.contains("Note.owner")
        }
        // The refused model left the store exactly as it was.
        let store = try StoreFixtures.openStore(place)
        #expect(try store.read { try $0.fetchObject(entity: "Note", id: 1)?.attributes["data"] } == .binary(Data([1, 2, 3])))
    }

    @Test(arguments: StoreBackendKind.available) func makingAnAttributeRequiredNeedsEveryRowToHaveIt(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        _ = try StoreFixtures.openStore(place).write { context in
            try context.save(
                ChangeSet(inserts: [
                    ChangeSet.Insert(entity: "Tag", attributes: ["name": .string("a")]),
                    ChangeSet.Insert(entity: "Item", attributes: [:]),
                ]))
        }
        var entities = StoreFixtures.notesModel().entities
        let itemIndex = entities.firstIndex { $0.name == "Item" }!
        var attributes = entities[itemIndex].attributes
        attributes[attributes.firstIndex { $0.name == "name" }!].isOptional = false
        entities[itemIndex] = EntityDescription(name: "Item", attributes: attributes, relationships: entities[itemIndex].relationships)
        #expect {
            try StoreFixtures.openStore(place, model: DataModel(entities: entities))
        } throws: { error in
            guard case StoreError.migrationRefused(let reasons) = error else { return false }
            return reasons.first?.contains("Item.name: made required, but 1 existing rows") == true
        }
    }

    /// Both backends: a rename keeps values, a new attribute fills existing rows with its default;
    /// making an attribute unique while two rows share a value is refused and changes nothing.
    @Test(arguments: StoreBackendKind.available) func renameAddAndRefuseAMadeUniqueAttributeWithDuplicates(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try place.open()
        try store.save(ChangeSet(inserts: [StoreFixtures.note("keep", index: 7), StoreFixtures.note("same", index: 7)]))
        let uuid = store.storeUUID
        let renamedModel = StoreFixtures.notesModel(
            extraNoteAttributes: [AttributeDescription(name: "color", type: .string, defaultValue: .string("blue"))], renameIndex: true)
        let renamed = try place.open(model: renamedModel)
        #expect(renamed.storeUUID == uuid)
        let note = try #require(try renamed.object("Note", 1))
        #expect(note.attributes["position"] == .integer(7))
        #expect(note.attributes["color"] == .string("blue"), "existing rows take the new attribute's default")
        // Making `position` unique while two rows share 7 is refused, and changes nothing.
        let madeUnique = StoreFixtures.notesModel(
            extraNoteAttributes: [
                AttributeDescription(name: "color", type: .string, defaultValue: .string("blue")),
                AttributeDescription(name: "weight", type: .integer, isOptional: true, isUnique: true),
            ], renameIndex: true
        ).withUnique("Note", "position")
        #expect {
            _ = try place.open(model: madeUnique)
        } throws: { error in
            guard case StoreError.migrationRefused(let reasons) = error else { return false }
            return reasons == ["Note.position: made unique, but existing rows share values"]
        }
        #expect(try place.open(model: renamedModel).object("Note", 2)?.attributes["position"] == .integer(7), "the refusal changed nothing")
        // A removed attribute is refused with SQLite's reason.
        #expect {
            _ = try place.open(model: StoreFixtures.notesModel())
        } throws: { error in
            guard case StoreError.migrationRefused(let reasons) = error else { return false }
            return reasons.contains { $0.contains("Note.color: attribute was removed") }
        }
        let again = try place.open(model: renamedModel)
        #expect(try again.object("Note", 2)?.attributes["position"] == .integer(7))
    }

    /// A to-one given an ordered to-many inverse: its column gains the inverse's positions, the
    /// links already there numbered in `_id` order, so new links append after them.
    @Test(arguments: StoreBackendKind.available) func anOrderedInverseAddedToAToOneNumbersItsLinks(_ kind: StoreBackendKind) throws {
        func model(inverse: Bool) -> DataModel {
            DataModel(entities: [
                EntityDescription(
                    name: "Note", attributes: [AttributeDescription(name: "title", type: .string, isOptional: true)],
                    relationships: [RelationshipDescription(name: "folder", destination: "Folder", inverseName: inverse ? "notes" : nil)]),
                EntityDescription(
                    name: "Folder", attributes: [AttributeDescription(name: "name", type: .string, isOptional: true)],
                    relationships: inverse
                        ? [RelationshipDescription(name: "notes", destination: "Note", isToMany: true, isOrdered: true, inverseName: "folder")] : []),
            ])
        }
        let place = try StorePlace(kind)
        let inFolder = ChangeSet.Insert(entity: "Note", relationships: ["folder": .toOne(.existing(1))])
        let before = try place.open(model: model(inverse: false))
        try before.save(ChangeSet(inserts: [ChangeSet.Insert(entity: "Folder")]))
        try before.save(ChangeSet(inserts: [inFolder, ChangeSet.Insert(entity: "Note"), inFolder]))
        let store = try place.open(model: model(inverse: true))
        let id = try store.save(ChangeSet(inserts: [inFolder])).insertedIDs[0]
        #expect(try store.object("Folder", 1)?.relationships["notes"] == .toMany([1, 3, id]))
        #expect(try place.open(model: model(inverse: true)).preparation == .unchanged)
    }
}
