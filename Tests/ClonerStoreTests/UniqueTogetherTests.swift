import ClonerModel
@testable import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// `uniqueTogether` (docs/architecture.md#the-model-file): one unique index per group, a clash names every attribute,
/// and the migrator adds or drops the index like `unique`.
@Suite struct UniqueTogetherTests {
    static func model(groups: [[String]], rename: Bool = false) -> DataModel {
        DataModel(entities: [
            EntityDescription(
                name: "Person",
                attributes: [
                    AttributeDescription(name: rename ? "givenName" : "firstName", type: .string, originalName: rename ? "firstName" : nil),
                    AttributeDescription(name: "lastName", type: .string),
                    AttributeDescription(name: "age", type: .integer, isOptional: true),
                ], uniqueTogether: groups)
        ])
    }

    static func person(_ first: String, _ last: String, firstName: String = "firstName") -> ChangeSet.Insert {
        ChangeSet.Insert(entity: "Person", attributes: [firstName: .string(first), "lastName": .string(last)])
    }

    /// The unique indexes on Person, by name, on either backend.
    static func indexNames(_ store: IncrementalStore) throws -> [String] {
        try store.read { context in
            let sql =
                context is PostgreSQLStoreContext
                ? "SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'Person' AND indexname <> 'Person_pkey' ORDER BY indexname"
                : "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Person' AND sql IS NOT NULL ORDER BY name"
            return try context.rawTexts(sql).compactMap { $0 }
        }
    }

    @Test(arguments: StoreBackendKind.available) func aClashNamesEveryAttributeOfTheGroupAndWritesNothing(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place, model: UniqueTogetherTests.model(groups: [["firstName", "lastName"]]))
        _ = try store.write { try $0.save(ChangeSet(inserts: [UniqueTogetherTests.person("Ada", "Lovelace"), UniqueTogetherTests.person("Ada", "Byron")])) }
        #expect {
            try store.write { try $0.save(ChangeSet(inserts: [UniqueTogetherTests.person("Alan", "Turing"), UniqueTogetherTests.person("Ada", "Lovelace")])) }
        } throws: { error in
            guard case StoreError.uniqueTogetherViolation("Person", ["firstName", "lastName"]) = error else { return false }
            return "\(error)".contains("Person.firstName, Person.lastName")
        }
        #expect(try store.read { try $0.fetchIDs(FetchRequest(entity: "Person")) }.count == 2)
    }

    @Test(arguments: StoreBackendKind.available) func theMigratorAddsAndDropsTheIndexAndFollowsARename(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        _ = try StoreFixtures.openStore(place, model: UniqueTogetherTests.model(groups: []))
            .write { try $0.save(ChangeSet(inserts: [UniqueTogetherTests.person("Ada", "Lovelace")])) }

        let added = try StoreFixtures.openStore(place, model: UniqueTogetherTests.model(groups: [["firstName", "lastName"]]))
        #expect(try UniqueTogetherTests.indexNames(added) == ["Person(firstName,lastName)_unique"])
        #expect(throws: StoreError.self) {
            try added.write { try $0.save(ChangeSet(inserts: [UniqueTogetherTests.person("Ada", "Lovelace")])) }
        }

        let renamed = try StoreFixtures.openStore(place, model: UniqueTogetherTests.model(groups: [["givenName", "lastName"]], rename: true))
        #expect(try UniqueTogetherTests.indexNames(renamed) == ["Person(givenName,lastName)_unique"])

        let dropped = try StoreFixtures.openStore(place, model: UniqueTogetherTests.model(groups: [], rename: true))
        #expect(try UniqueTogetherTests.indexNames(dropped).isEmpty)
        _ = try dropped.write { try $0.save(ChangeSet(inserts: [UniqueTogetherTests.person("Ada", "Lovelace", firstName: "givenName")])) }
    }

    @Test(arguments: StoreBackendKind.available) func addingAGroupThatExistingRowsBreakIsRefusedWithTheNames(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        _ = try StoreFixtures.openStore(place, model: UniqueTogetherTests.model(groups: []))
            .write { try $0.save(ChangeSet(inserts: [UniqueTogetherTests.person("Ada", "Lovelace"), UniqueTogetherTests.person("Ada", "Lovelace")])) }
        #expect {
            try StoreFixtures.openStore(place, model: UniqueTogetherTests.model(groups: [["firstName", "lastName"]]))
        } throws: { error in
            guard case StoreError.migrationRefused(let reasons) = error else { return false }
            return reasons.contains { $0.contains("Person.firstName, Person.lastName") }
        }
    }
}
