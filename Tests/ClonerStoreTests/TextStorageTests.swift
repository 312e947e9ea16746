import ClonerModel
@testable import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// Text is stored by its bytes: a NUL inside a string (JSON's `"\u0000"`) is kept, filtered on and
/// read back whole, never cut at the NUL as a C string would be — on SQLite. PostgreSQL's text
/// cannot hold U+0000: there the save is refused naming the attribute, and nothing is written.
@Suite struct TextStorageTests {
    @Test(arguments: StoreBackendKind.available) func textWithNULIsKeptFilteredAndSortedByItsBytes(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        var names = ["nul\u{0}tail", "nul", "\u{0}", "", "nul\u{0}", "e\u{301}", "é", "😀\u{0}𝄞"]
        if kind == .postgreSQL {
            #expect {
                try store.save(ChangeSet(inserts: names.map { StoreFixtures.note($0) }))
            } throws: { error in
                guard case StoreError.invalidValue("Note", "name", let reason) = error else { return false }
                return reason.contains("U+0000")
            }
            #expect(try store.read { try $0.fetchIDs(FetchRequest(entity: "Note")) }.isEmpty, "nothing half-written")
            names.removeAll { $0.utf8.contains(0) }
        }
        let ids = try store.write { context in
            try context.save(ChangeSet(inserts: names.map { StoreFixtures.note($0) })).insertedIDs
        }
        let stored = try store.read { try $0.fetchObjects(entity: "Note", ids: ids) }
        #expect(
            stored.map { object -> [UInt8] in
                guard case .string(let text)? = object.attributes["name"] else { return [] }
                return Array(text.utf8)
            } == names.map { Array($0.utf8) })
        for (name, id) in zip(names, ids) {
            let found = try store.read { try $0.fetchIDs(FetchRequest(entity: "Note", predicates: [.init("name", .string(name))])) }
            #expect(found == [id], "filter on \(Array(name.utf8))")
        }
        // Sorted by bytes (SQLite's BINARY collation), the NUL included.
        let sorted = try store.read { try $0.fetchIDs(FetchRequest(entity: "Note", sort: [FetchRequest.Sort("name")])) }
        let expected = zip(names, ids).sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }.map(\.1)
        #expect(sorted == expected)
        let lengths = try store.read { context in
            try context.rawTexts(
                kind == .sqlite
                    ? "SELECT length(CAST(name AS BLOB)) FROM Note ORDER BY _id"
                    : "SELECT octet_length(name)::text FROM \"Note\" ORDER BY _id")
        }
        #expect(lengths == names.map { String($0.utf8.count) })
    }
}
