import ClonerModel
@testable import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// The objects an import finds by their natural key are held as a save holds the objects it
/// links, until the import commits: another writer cannot delete them in between.
@Suite(.requiresPostgreSQL) struct NaturalKeyLockTests {
    @Test func objectsFoundByNaturalKeyAreLockedUntilCommit() throws {
        let database = try PostgreSQLTestCluster.shared.createDatabase()
        let model = StoreFixtures.notesModel()
        let store = try IncrementalStore(location: .postgreSQL(uri: database.uri), model: model)
        let tag = try store.write { try $0.save(ChangeSet(inserts: [ChangeSet.Insert(entity: "Tag", attributes: ["name": .string("home")])])) }
            .insertedIDs[0]
        let entity = model.entity(named: "Tag")!
        let other = try PostgreSQLConnection(uri: database.uri)
        // Fail at once instead of waiting for the import's transaction.
        try other.execute("SET lock_timeout = '100ms'")
        try store.write { context in
            let found = try context.idsByNaturalKey(
                entity: entity, key: [entity.attribute(named: "name")!], values: [[.string("home")], [.string("away")]])
            #expect(found == [tag, nil])
            #expect(throws: (any Error).self, "the tag was deleted while the import held it") {
                try other.execute("DELETE FROM \"Tag\" WHERE \"_id\" = \(tag)")
            }
        }
        try other.execute("DELETE FROM \"Tag\" WHERE \"_id\" = \(tag)")
        #expect(try store.read { try $0.version(entity: "Tag", id: tag) } == nil)
    }
}
