@testable import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// The lineage table (docs/architecture.md#lineage) is a service table: a store an older version
/// made, without it, gains it when it opens, on both backends.
@Suite struct LineageTableTests {
    @Test(arguments: StoreBackendKind.available) func aStoreFromBeforeTheLineageGainsItsTable(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let note: Int64
        do {
            let store = try place.open()
            note = try store.write { try $0.save(ChangeSet(inserts: [StoreFixtures.note("template")])).insertedIDs[0] }
            try store.write { context in _ = try context.rawTexts("DROP TABLE _cloner_lineage") }
            let tables = try store.read {
                try $0.rawTexts(
                    kind == .sqlite
                        ? "SELECT name FROM sqlite_master WHERE name LIKE '_cloner_lineage%'"
                        : "SELECT relname::text FROM pg_class WHERE relname LIKE '_cloner_lineage%'")
            }
            #expect(tables.isEmpty, "the old shape, before reopening: \(tables)")
        }
        let store = try place.open()
        let clones = try store.write { context in
            let ids = try context.save(ChangeSet(inserts: [StoreFixtures.note("a"), StoreFixtures.note("b")])).insertedIDs
            try context.recordClones(entity: "Note", sourceID: note, cloneIDs: ids, at: Date())
            return ids
        }
        let listed = try store.read { try $0.clones(entity: "Note", sourceID: note, after: nil, limit: 10) }
        #expect(listed.map(\.cloneID) == clones.sorted(by: >))
        let records = try store.read { try $0.fetchRecords(entity: "Note", ids: [note] + clones) }
        #expect(records.clonedFrom == [1: note, 2: note])
    }
}
