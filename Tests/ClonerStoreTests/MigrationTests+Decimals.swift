import ClonerModel
@testable import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

extension MigrationTests {
    /// A decimal added to a store with rows: the rows take its default, exactly; values written
    /// afterwards keep every digit once the store is opened again (a new connection, which must
    /// know the SQLite column's collation); a later change of its type is refused like any other.
    @Test(arguments: StoreBackendKind.available) func addsADecimalAttributeKeepingEveryDigit(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let old = try StoreFixtures.openStore(place).write { try $0.save(ChangeSet(inserts: [StoreFixtures.note("old")])).insertedIDs[0] }
        func model(_ type: AttributeType, default value: AttributeValue?) -> DataModel {
            StoreFixtures.notesModel(extraNoteAttributes: [AttributeDescription(name: "price", type: type, defaultValue: value)])
        }
        let twelveFifty = try ExactDecimal(parsing: "12.50")
        let exact = try ExactDecimal(parsing: "-98765432109876543210.987654321098765432")
        let decimals = model(.decimal, default: .decimal(twelveFifty))
        let id = try StoreFixtures.openStore(place, model: decimals).write { context in
            var note = StoreFixtures.note("new")
            note.attributes["price"] = .decimal(exact)
            return try context.save(ChangeSet(inserts: [note])).insertedIDs[0]
        }
        let store = try StoreFixtures.openStore(place, model: decimals)
        #expect(try store.read { try $0.fetchObject(entity: "Note", id: old)?.attributes["price"] } == .decimal(twelveFifty))
        #expect(try store.read { try $0.fetchObject(entity: "Note", id: id)?.attributes["price"] } == .decimal(exact))
        #expect(twelveFifty.text == "12.5")

        #expect {
            try StoreFixtures.openStore(place, model: model(.double, default: .double(0)))
        } throws: { error in
            guard case StoreError.migrationRefused(let reasons) = error else { return false }
            return reasons == ["Note.price: type changed from decimal to double; stored values cannot be converted safely"]
        }
    }
}
