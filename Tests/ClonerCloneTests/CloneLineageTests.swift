import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// Where clones came from, in the store (docs/architecture.md#lineage): written in the clone's
/// transaction for every copy, read with the records, listed newest first.
@Suite struct CloneLineageTests {
    @Test(arguments: StoreBackendKind.available) func everyCopyIsReadWithItsSource(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let sample = try fixture.makeSampleNote(items: 2)
        let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, copies: 3))
        let copies = try #require(result.clones).map(\.id)
        #expect(copies.count == 3)
        _ = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, dryRun: true))

        try fixture.store.read { context in
            let records = try context.fetchRecords(entity: "Note", ids: [sample.note] + copies)
            #expect((0..<records.count).map { records.clonedFrom(record: $0) } == [nil] + copies.map { _ in sample.note })
            let page = try context.fetchRecordPage(FetchRequest(entity: "Note"), pageSize: 10)
            #expect(page.records.ids == [sample.note] + copies)
            #expect(page.records.clonedFrom == Dictionary(uniqueKeysWithValues: (1...3).map { ($0, sample.note) }))
            let items = try context.fetchRecords(entity: "Item", ids: try fixture.ids("Item"))
            #expect(items.count == 8 && items.clonedFrom.isEmpty)

            let listed = try context.clones(entity: "Note", sourceID: sample.note, after: nil, limit: 10)
            #expect(listed.map(\.cloneID) == copies.sorted(by: >))
            #expect(listed.allSatisfy { $0.entity == "Note" && $0.sourceID == sample.note })
            // One clone, one time; the next page starts after the position given.
            #expect(Set(listed.map(\.createdAtMilliseconds)).count == 1)
            let rest = try context.clones(entity: "Note", sourceID: sample.note, after: CloneListPosition(after: listed[0]), limit: 10)
            #expect(rest.map(\.cloneID) == Array(listed.dropFirst().map(\.cloneID)))
        }
    }

    @Test(arguments: StoreBackendKind.available) func aCloneThatFailsLeavesNoLineage(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let sample = try fixture.makeSampleNote(items: 1)
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try fixture.store.write { context in
                try context.recordClones(entity: "Note", sourceID: sample.note, cloneIDs: [sample.note], at: Date())
                throw Refused()
            }
        }
        let listed = try fixture.store.read { try $0.clones(entity: "Note", sourceID: sample.note, after: nil, limit: 10) }
        #expect(listed.isEmpty)
        let records = try fixture.store.read { try $0.fetchRecords(entity: "Note", ids: [sample.note]) }
        #expect(records.clonedFrom(record: 0) == nil)
    }

    /// On PostgreSQL the lineage goes out with the COMMIT: a clone keeps its round trips.
    @Test(.enabled(if: PostgreSQLTestCluster.isEnabled, Comment(rawValue: PostgreSQLTestCluster.skipReason)))
    func postgreSQLSendsTheLineageWithTheCommit() throws {
        let fixture = try CloneFixture(.postgreSQL)
        let sample = try fixture.makeSampleNote(items: 2)
        let plan = try fixture.engine.plan(CloneRequest(entity: "Note", id: sample.note)).copy
        let (cloneID, roundTrips) = try fixture.store.write { context in
            let copied = try context.copyGraph(plan, now: Date(), progress: GraphCopyProgress())
            let (_, roundTrips) = try context.postgreSQLConnection.countingRoundTrips {
                try context.recordClones(entity: "Note", sourceID: sample.note, cloneIDs: copied.cloneIDs, at: Date())
            }
            return (copied.cloneIDs[0], roundTrips)
        }
        #expect(roundTrips == 0)
        let records = try fixture.store.read { try $0.fetchRecords(entity: "Note", ids: [cloneID]) }
        #expect(records.clonedFrom(record: 0) == sample.note)
    }
}
