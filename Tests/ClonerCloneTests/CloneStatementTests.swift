import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import Foundation
import Testing

/// What a small clone costs in statements, and that the work tables it reuses are
/// left empty whatever happened to the copy before.
@Suite struct CloneStatementTests {
    /// The statements of one copy of `plan`, in the store's write transaction.
    private func statements(_ fixture: CloneFixture, _ request: CloneRequest) throws -> [String] {
        let plan = try fixture.engine.plan(request)
        return try fixture.store.write { context in
            try context.sqliteConnection.recordingStatements {
                try context.copyGraph(plan.copy, now: Date(), progress: GraphCopyProgress())
            }.statements
        }
    }

    @Test func aSmallCloneRunsNoSchemaStatementAndFewStatements() throws {
        let fixture = try CloneFixture()
        let tags = try fixture.makeTags(["x"])
        let sample = try fixture.makeSampleNote(items: 2, tags: tags)
        let first = try statements(fixture, CloneRequest(entity: "Note", id: sample.note))
        let second = try statements(fixture, CloneRequest(entity: "Note", id: sample.note))
        for run in [first, second] {
            let schema = run.filter { $0.hasPrefix("CREATE") || $0.hasPrefix("PRAGMA") || $0.hasPrefix("DROP") }
            #expect(schema.isEmpty, "work tables are made where the connection opens: \(schema)")
        }
        // 55 before the work tables moved out of the copy; a budget, so a regression shows here.
        #expect(second.count <= 30, "\(second.count) statements:\n\(second.joined(separator: "\n"))")
        // The walk's level statement runs once per level below the root (two here) and once more
        // to find nothing; no other statement runs twice.
        let repeated = Dictionary(grouping: second, by: { $0 }).filter { $0.value.count > 1 }
        #expect(repeated.keys.allSatisfy { $0.hasPrefix("INSERT INTO temp.\"_clone_walk\"") }, "repeated: \(repeated.keys)")
        #expect(repeated.values.map(\.count) == [3], "one run per level")
    }

    @Test func uniqueValuesOnCopyRunTheSameStatementsForFewCopiesOrMany() throws {
        // docs/architecture.md#unique-values-on-copy: numbered inside each entity's one INSERT.
        let fixture = try CloneFixture(
            modelJSON: """
                { "entities": [ { "name": "Board", "attributes": [
                  { "name": "title", "type": "string", "unique": true, "userInfo": { "rebuild": "suffix" } } ] } ] }
                """)
        let board = try #require(try fixture.insert([ChangeSet.Insert(entity: "Board", attributes: ["title": .string("Onboarding")])]).first)
        let few = try statements(fixture, CloneRequest(entity: "Board", id: board, copies: 2))
        let many = try statements(fixture, CloneRequest(entity: "Board", id: board, copies: 40))
        #expect(few.count == many.count, "two copies: \(few.count), forty: \(many.count)")
        #expect(many.filter { $0.hasPrefix("INSERT INTO \"Board\"") }.count == 1)
        let titles = try fixture.ids("Board").map { try fixture.object("Board", $0).attributes["title"] }
        #expect(Set(titles).count == 43, "every copy has a title of its own")
        #expect(titles.contains(.string("Onboarding (copy 42)")))
    }

    @Test func aCopyThatFailsLeavesTheWorkTablesAsTheNextCopyNeedsThem() throws {
        let fixture = try CloneFixture()
        let sample = try fixture.makeSampleNote(items: 3)
        let originalID = try fixture.object("Note", sample.note).attributes["id"]!
        #expect(throws: CloneError.self) {
            // A unique clash on the third copy: the map and walk were full when it failed.
            try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, copies: 3, copySets: [[:], [:], ["id": originalID]]))
        }
        let expected = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, dryRun: true))
        for round in 1...2 {
            let single = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, returnIDs: true))
            #expect(single.created == expected.created, "clone \(round) after a failed one copies exactly its own graph")
            #expect(single.ids?["Item"]?.count == 3)
        }
    }
}
