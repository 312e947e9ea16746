@testable import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// The objects a save links are looked up once per destination entity for the whole change set,
/// not once per edited object; a missing one is still named with its relationship.
struct LinkCheckTests {
    static func items(_ count: Int, tags: [Int64]) -> [ChangeSet.Insert] {
        (0..<count).map { index in
            ChangeSet.Insert(
                entity: "Item", attributes: ["name": .string("item \(index)")],
                relationships: ["tags": .toMany(tags.map(ChangeSet.Reference.existing))])
        }
    }

    @Test func manyObjectsLinkingTheSameEntityCostOneLookUp() throws {
        let directory = try TemporaryDirectory()
        let store = try StoreFixtures.openStore(directory)
        let tags = try store.save(
            ChangeSet(inserts: [ChangeSet.Insert(entity: "Tag", attributes: ["name": .string("a")]), .init(entity: "Tag", attributes: ["name": .string("b")])])
        ).insertedIDs
        for count in [5, 40] {
            let (_, statements) = try store.write { context in
                try context.sqliteConnection.recordingStatements { try context.save(ChangeSet(inserts: Self.items(count, tags: tags))) }
            }
            let lookUps = statements.filter { $0.hasPrefix("SELECT \"_id\" FROM \"Tag\"") }
            #expect(lookUps.count == 1, "\(count) items: \(lookUps.count) look-ups")
        }
    }

    @Test(arguments: StoreBackendKind.available) func aMissingLinkAmongManyIsNamed(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        let tag = try store.save(ChangeSet(inserts: [ChangeSet.Insert(entity: "Tag", attributes: ["name": .string("a")])])).insertedIDs[0]
        var inserts = Self.items(10, tags: [tag])
        inserts[7].relationships["tags"] = .toMany([.existing(tag), .existing(tag + 100)])
        #expect {
            try store.save(ChangeSet(inserts: inserts))
        } throws: { error in
            guard case StoreError.danglingReference("Item", "tags", tag + 100)? = error as? StoreError else { return false }
            return true
        }
        #expect(try store.read { try $0.existingIDs(entity: "Item", ids: Array(1...20)) }.isEmpty, "nothing was written")
    }
}
