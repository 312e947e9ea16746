import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// A relationship that is its own inverse (docs/architecture.md#the-model-file): setting one side sets the other, in
/// records (create, update, read, delete) and in clones (identity rule 4).
@Suite struct SelfInverseTests {
    static let model = """
        { "entities": [
          { "name": "Person", "attributes": [ { "name": "name", "type": "string" } ],
            "relationships": [
              { "name": "spouse", "destination": "Person", "inverse": "spouse" },
              { "name": "friends", "destination": "Person", "toMany": true, "inverse": "friends" },
              { "name": "children", "destination": "Child", "toMany": true, "inverse": "parent", "deleteRule": "cascade" } ] },
          { "name": "Child", "attributes": [ { "name": "name", "type": "string" } ],
            "relationships": [
              { "name": "parent", "destination": "Person", "inverse": "children" },
              { "name": "playmates", "destination": "Child", "toMany": true, "inverse": "playmates" },
              { "name": "twin", "destination": "Child", "inverse": "twin" } ] }
        ] }
        """

    static func person(_ name: String, _ relationships: [String: ChangeSet.RelationshipEdit] = [:]) -> ChangeSet.Insert {
        ChangeSet.Insert(entity: "Person", attributes: ["name": .string(name)], relationships: relationships)
    }

    func update(_ fixture: CloneFixture, _ id: Int64, _ relationships: [String: ChangeSet.RelationshipEdit]) throws {
        try fixture.store.write { _ = try $0.save(ChangeSet(updates: [ChangeSet.Update(entity: "Person", id: id, relationships: relationships)])) }
    }

    @Test(arguments: StoreBackendKind.available) func settingOneSpouseSetsTheOtherAndClearsBothPreviousSpouses(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(modelJSON: SelfInverseTests.model, backend)
        let ids = try fixture.insert([
            SelfInverseTests.person("a"), SelfInverseTests.person("b", ["spouse": .toOne(.inserted(0))]),
            SelfInverseTests.person("c"), SelfInverseTests.person("d", ["spouse": .toOne(.inserted(2))]),
        ])
        let (a, b, c, d) = (ids[0], ids[1], ids[2], ids[3])
        #expect(try fixture.toOne("Person", a, "spouse") == b, "created from b's side, read from a's")
        #expect(try fixture.toOne("Person", b, "spouse") == a)
        #expect(try fixture.toOne("Person", c, "spouse") == d)

        try update(fixture, a, ["spouse": .toOne(.existing(c))])
        #expect(try fixture.toOne("Person", a, "spouse") == c)
        #expect(try fixture.toOne("Person", c, "spouse") == a)
        #expect(try fixture.toOne("Person", b, "spouse") == nil, "a's previous spouse is single again")
        #expect(try fixture.toOne("Person", d, "spouse") == nil, "c's previous spouse is single again")

        try update(fixture, c, ["spouse": .toOne(nil)])
        #expect(try fixture.toOne("Person", a, "spouse") == nil)
        #expect(try fixture.toOne("Person", c, "spouse") == nil)

        try update(fixture, b, ["spouse": .toOne(.existing(d))])
        try fixture.store.write { _ = try $0.save(ChangeSet(deletes: [ChangeSet.Delete(entity: "Person", id: d)])) }
        #expect(try fixture.toOne("Person", b, "spouse") == nil, "delete nullifies the partner's side")
    }

    @Test(arguments: StoreBackendKind.available) func friendsAreListedFromBothSides(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(modelJSON: SelfInverseTests.model, backend)
        let ids = try fixture.insert([
            SelfInverseTests.person("a"), SelfInverseTests.person("b"), SelfInverseTests.person("c"),
            SelfInverseTests.person("d", ["friends": .toMany([.inserted(0), .inserted(1)])]),
        ])
        let (a, b, c, d) = (ids[0], ids[1], ids[2], ids[3])
        #expect(try fixture.toMany("Person", a, "friends") == [d])
        #expect(try fixture.toMany("Person", b, "friends") == [d])
        #expect(Set(try fixture.toMany("Person", d, "friends")) == [a, b])

        try update(fixture, d, ["friends": .toMany([.existing(b), .existing(c)])])
        #expect(try fixture.toMany("Person", a, "friends").isEmpty, "removing a from d's friends removes d from a's")
        #expect(try fixture.toMany("Person", c, "friends") == [d])
        try update(fixture, a, ["friends": .toMany([.existing(c)])])
        #expect(Set(try fixture.toMany("Person", c, "friends")) == [a, d])

        try fixture.store.write { _ = try $0.save(ChangeSet(deletes: [ChangeSet.Delete(entity: "Person", id: c)])) }
        #expect(try fixture.toMany("Person", a, "friends").isEmpty)
        #expect(try fixture.toMany("Person", d, "friends") == [b])
    }

    @Test(arguments: StoreBackendKind.available) func aCloneRepointsSelfInverseReferencesBetweenItsObjectsOnBothSides(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(modelJSON: SelfInverseTests.model, backend)
        let ids = try fixture.insert([
            SelfInverseTests.person("parent"),
            ChangeSet.Insert(entity: "Child", attributes: ["name": .string("x")], relationships: ["parent": .toOne(.inserted(0))]),
            ChangeSet.Insert(
                entity: "Child", attributes: ["name": .string("y")],
                relationships: ["parent": .toOne(.inserted(0)), "twin": .toOne(.inserted(1)), "playmates": .toMany([.inserted(1)])]),
            ChangeSet.Insert(entity: "Child", attributes: ["name": .string("outsider")], relationships: ["playmates": .toMany([.inserted(1)])]),
        ])
        let (parent, x, y, outsider) = (ids[0], ids[1], ids[2], ids[3])
        let result = try fixture.engine.clone(CloneRequest(entity: "Person", id: parent, returnIDs: true))
        #expect(result.created == ["Person": 1, "Child": 2])
        let map = try #require(result.ids?["Child"])
        let (x2, y2) = (try #require(map[x]), try #require(map[y]))
        #expect(try fixture.toOne("Child", x2, "twin") == y2)
        #expect(try fixture.toOne("Child", y2, "twin") == x2)
        #expect(try fixture.toMany("Child", y2, "playmates") == [x2])
        #expect(Set(try fixture.toMany("Child", x2, "playmates")) == [y2, outsider], "shared playmate kept, the clone set's re-pointed")
        #expect(Set(try fixture.toMany("Child", outsider, "playmates")) == [x, x2], "the shared playmate lists the clone too")
        // The originals are as they were.
        #expect(try fixture.toOne("Child", x, "twin") == y)
        #expect(try fixture.toOne("Child", y, "twin") == x)
        #expect(Set(try fixture.toMany("Child", x, "playmates")) == [y, outsider])
    }
}
