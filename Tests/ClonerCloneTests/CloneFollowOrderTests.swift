import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// `followParent` chains (a crumb follows its leaf's value, which follows its box's rebuilt code)
/// must come out the same whatever order the model lists the entities in: parents first (the
/// copier can write the value in the row's INSERT) or children first (it must update the rows once
/// the parents exist, grandparents' values before parents').
@Suite struct CloneFollowOrderTests {
    static let entities = [
        "Box": """
        { "name": "Box", "attributes": [ { "name": "code", "type": "uuid", "userInfo": { "rebuild": "uuid" } } ],
          "relationships": [ { "name": "leaves", "destination": "Leaf", "toMany": true, "inverse": "box", "deleteRule": "cascade" } ] }
        """,
        "Leaf": """
        { "name": "Leaf", "attributes": [ { "name": "boxCode", "type": "uuid", "optional": true, "userInfo": { "followParent": "code" } } ],
          "relationships": [ { "name": "box", "destination": "Box", "inverse": "leaves" },
                             { "name": "crumbs", "destination": "Crumb", "toMany": true, "inverse": "leaf", "deleteRule": "cascade" } ] }
        """,
        "Crumb": """
        { "name": "Crumb", "attributes": [ { "name": "boxCode", "type": "uuid", "optional": true, "userInfo": { "followParent": "boxCode" } } ],
          "relationships": [ { "name": "leaf", "destination": "Leaf", "inverse": "crumbs" } ] }
        """,
    ]

    static func model(_ order: [String]) -> String {
        "{ \"entities\": [" + order.map { entities[$0]! }.joined(separator: ",\n") + "] }"
    }

    static let orders = [["Box", "Leaf", "Crumb"], ["Crumb", "Leaf", "Box"], ["Leaf", "Crumb", "Box"]]

    @Test(arguments: StoreBackendKind.available, orders) func followedValuesReachEveryLevelInAnyEntityOrder(_ backend: StoreBackendKind, _ order: [String])
        throws
    {
        let fixture = try CloneFixture(modelJSON: CloneFollowOrderTests.model(order), backend)
        let code = UUID()
        var inserts = [ChangeSet.Insert(entity: "Box", attributes: ["code": .uuid(code)])]
        for leaf in 0..<3 {
            let leafIndex = inserts.count
            inserts.append(ChangeSet.Insert(entity: "Leaf", attributes: ["boxCode": .uuid(code)], relationships: ["box": .toOne(.inserted(0))]))
            for _ in 0...leaf {
                inserts.append(ChangeSet.Insert(entity: "Crumb", attributes: ["boxCode": .uuid(code)], relationships: ["leaf": .toOne(.inserted(leafIndex))]))
            }
        }
        let ids = try fixture.insert(inserts)
        let result = try fixture.engine.clone(CloneRequest(entity: "Box", id: ids[0], returnIDs: true, copies: 2))
        #expect(result.created == ["Box": 2, "Leaf": 6, "Crumb": 12])
        for (copy, map) in try #require(result.copyIDs).enumerated() {
            let box = try #require(map["Box"]?[ids[0]])
            let newCode = try fixture.object("Box", box).attributes["code"]
            #expect(newCode != AttributeValue.uuid(code), "copy \(copy): the box's code is rebuilt")
            for (old, new) in map["Leaf"] ?? [:] {
                #expect(try fixture.object("Leaf", new).attributes["boxCode"] == newCode, "copy \(copy): leaf \(old) follows its box")
            }
            for (old, new) in map["Crumb"] ?? [:] {
                #expect(try fixture.object("Crumb", new).attributes["boxCode"] == newCode, "copy \(copy): crumb \(old) follows its leaf")
            }
        }
        // The source is untouched.
        #expect(try fixture.object("Box", ids[0]).attributes["code"] == .uuid(code))
        for (insert, id) in zip(inserts, ids).dropFirst() {
            #expect(try fixture.object(insert.entity, id).attributes["boxCode"] == .uuid(code))
        }
    }
}
