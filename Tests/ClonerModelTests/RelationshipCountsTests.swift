import ClonerModel
import Foundation
import Testing

/// `minCount`/`maxCount` of a to-many, from the model file and from a Core Data model.
@Suite struct RelationshipCountsTests {
    static func model(_ counts: String, toMany: Bool = true) -> String {
        """
        { "entities": [
          { "name": "Basket", "relationships": [
              { "name": "eggs", "destination": "Egg", "toMany": \(toMany), "inverse": "basket", \(counts) } ] },
          { "name": "Egg", "relationships": [ { "name": "basket", "destination": "Basket", "inverse": "eggs" } ] }
        ] }
        """
    }

    static func problems(_ text: String) -> [String] {
        do {
            _ = try ModelLoader.load(data: Data(text.utf8))
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func theModelFileSetsCountsOnAToMany() throws {
        let model = try ModelLoader.load(data: Data(Self.model(#""minCount": 1, "maxCount": 4"#).utf8))
        let eggs = try #require(model.entity(named: "Basket")?.relationship(named: "eggs"))
        #expect(eggs.minCount == 1 && eggs.maxCount == 4)
        let plain = try ModelLoader.load(data: Data(Self.model(#""optional": false"#).utf8))
        let unbounded = try #require(plain.entity(named: "Basket")?.relationship(named: "eggs"))
        #expect(unbounded.minCount == nil && unbounded.maxCount == nil)
    }

    @Test func badCountsAreRefusedByName() {
        #expect(Self.problems(Self.model(#""minCount": 3, "maxCount": 2"#)).contains { $0.contains("minCount 3 is more than maxCount 2") })
        #expect(Self.problems(Self.model(#""maxCount": -1"#)).contains { $0.contains("maxCount") && $0.contains("expected a count") })
        #expect(Self.problems(Self.model(#""minCount": 1"#, toMany: false)).contains { $0.contains("minCount applies to to-many relationships only") })
    }

    @Test func coreDataCountsAreRead() throws {
        let bundle = CoreDataModelTests.fixtures.appendingPathComponent("Shop.xcdatamodeld")
        let model = try ModelLoader.load(contentsOf: bundle)
        let labels = try #require(model.entity(named: "Order")?.relationship(named: "labels"))
        #expect(labels.maxCount == 2 && labels.minCount == nil && !labels.isOptional)
        #expect(model.entity(named: "OrderItem")?.relationship(named: "order")?.maxCount == nil, "a to-one's maxCount=\"1\" is no count")
    }
}
