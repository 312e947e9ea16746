import ClonerModel
@testable import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// Decimals as each store keeps them: every digit read back, and the store's own order (SQLite's
/// collation, PostgreSQL's numeric) the same as `ExactDecimal`'s, over values of every shape.
@Suite struct DecimalStorageTests {
    static let model = DataModel(entities: [
        EntityDescription(name: "Amount", attributes: [AttributeDescription(name: "value", type: .decimal, isOptional: true)])
    ])

    /// Random decimals: 1 to 38 digits, the point anywhere from far left to far right, either
    /// sign, and zeros at either end that the canonical text drops.
    static func values(count: Int, seed: UInt64) throws -> [ExactDecimal] {
        var generator = SeededGenerator(state: seed)
        var values: [ExactDecimal] = []
        for _ in 0..<count {
            let digits = Int.random(in: 1...38, using: &generator)
            var text = (0..<digits).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
            if Bool.random(using: &generator) { text = "000" + text + "000" }
            let exponent = Int.random(in: -100...90, using: &generator)
            let sign = Bool.random(using: &generator) ? "-" : ""
            values.append(try ExactDecimal(parsing: "\(sign)\(text)e\(exponent)"))
        }
        // Neighbours that differ in the last of 38 digits, around zero and across a power of ten.
        for text in ["0", "-0.1", "0.1", "9.9999999999999999999999999999999999999", "10", "-10", "99999999999999999999999999999999999999"] {
            values.append(try ExactDecimal(parsing: text))
        }
        return values
    }

    @Test(arguments: StoreBackendKind.available) func everyDigitAndTheNumericOrder(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place, model: Self.model)
        let values = try Self.values(count: 400, seed: 20_261_129)
        let ids = try store.write { context in
            try context.save(ChangeSet(inserts: values.map { ChangeSet.Insert(entity: "Amount", attributes: ["value": .decimal($0)]) })).insertedIDs
        }
        let byID = Dictionary(uniqueKeysWithValues: zip(ids, values))
        let read = try store.read { try $0.fetchObjects(entity: "Amount", ids: ids) }
        for object in read {
            #expect(object.attributes["value"] == .decimal(byID[object.id]!), "\(object.id)")
        }
        for ascending in [true, false] {
            let ordered = try store.read { try $0.fetchIDs(FetchRequest(entity: "Amount", sort: [FetchRequest.Sort("value", ascending: ascending)])) }
            let storeOrder = ordered.map { byID[$0]! }
            let expected = values.sorted()
            #expect(storeOrder == (ascending ? expected : expected.reversed()), "the store sorts as ExactDecimal does")
        }
        for value in values.prefix(20) {
            let found = try store.read { try $0.fetchIDs(FetchRequest(entity: "Amount", predicates: [.init("value", .decimal(value))])) }
            #expect(found.allSatisfy { byID[$0] == value } && !found.isEmpty, "\(value)")
        }
    }
}
