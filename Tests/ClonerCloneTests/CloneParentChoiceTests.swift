import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// Which parent `followParent` reads for an object the walk reaches more than once: the object
/// whose owned relationship reached it first breadth first — the shallowest arrival, and between
/// arrivals at one depth the one whose parent the walk came to first (the root's relationships
/// in the model's order, then each object's in turn), not the relationship declared first.
@Suite struct CloneParentChoiceTests {
    /// `A` and `B` are declared before `Root`, `A` before `B`, while `Root` lists `cs`, `bs`, `as`:
    /// the order the walk meets the parents is not the order their relationships are numbered in.
    static let model = """
        { "entities": [
          { "name": "A", "attributes": [ { "name": "code", "type": "string" } ],
            "relationships": [ { "name": "root", "destination": "Root", "inverse": "as" },
                               { "name": "leaves", "destination": "Leaf", "toMany": true, "inverse": "a" } ] },
          { "name": "B", "attributes": [ { "name": "code", "type": "string" } ],
            "relationships": [ { "name": "root", "destination": "Root", "inverse": "bs" },
                               { "name": "leaves", "destination": "Leaf", "toMany": true, "inverse": "b" } ] },
          { "name": "C", "attributes": [ { "name": "code", "type": "string" } ],
            "relationships": [ { "name": "root", "destination": "Root", "inverse": "cs" },
                               { "name": "ds", "destination": "D", "toMany": true, "inverse": "c" } ] },
          { "name": "D", "attributes": [ { "name": "code", "type": "string" } ],
            "relationships": [ { "name": "c", "destination": "C", "inverse": "ds" },
                               { "name": "leaves", "destination": "Leaf", "toMany": true, "inverse": "d" } ] },
          { "name": "Leaf", "attributes": [ { "name": "from", "type": "string", "optional": true,
                                              "userInfo": { "followParent": "code", "withoutParent": "blank" } } ],
            "relationships": [ { "name": "a", "destination": "A", "inverse": "leaves" },
                               { "name": "b", "destination": "B", "inverse": "leaves" },
                               { "name": "d", "destination": "D", "inverse": "leaves" } ] },
          { "name": "Root", "attributes": [ { "name": "code", "type": "string" } ],
            "relationships": [ { "name": "cs", "destination": "C", "toMany": true, "inverse": "root" },
                               { "name": "bs", "destination": "B", "toMany": true, "inverse": "root" },
                               { "name": "as", "destination": "A", "toMany": true, "inverse": "root" } ] }
        ] }
        """

    /// The root and the leaves' possible parents, inserted first in this order (ids 0–4 of the
    /// change set): Root, A, B, C, and D under C.
    static let parents = [
        ChangeSet.Insert(entity: "Root", attributes: ["code": .string("root")]),
        ChangeSet.Insert(entity: "A", attributes: ["code": .string("a")], relationships: ["root": .toOne(.inserted(0))]),
        ChangeSet.Insert(entity: "B", attributes: ["code": .string("b")], relationships: ["root": .toOne(.inserted(0))]),
        ChangeSet.Insert(entity: "C", attributes: ["code": .string("c")], relationships: ["root": .toOne(.inserted(0))]),
        ChangeSet.Insert(entity: "D", attributes: ["code": .string("d")], relationships: ["c": .toOne(.inserted(3))]),
    ]

    /// `extraLeaves` under D make the clone a large one, which PostgreSQL walks a second time,
    /// straight into its map, choosing the parents in the same statement; as many more Cs under
    /// the root make the root's level large, past which SQLite walks on by the model's ways.
    @Test(arguments: StoreBackendKind.available, [0, 1_100])
    func anObjectReachedTwiceFollowsItsFirstParentBreadthFirst(_ backend: StoreBackendKind, extraLeaves: Int) throws {
        let fixture = try CloneFixture(modelJSON: CloneParentChoiceTests.model, backend)
        let leaf = { (parents: [String: ChangeSet.RelationshipEdit]) in
            ChangeSet.Insert(entity: "Leaf", attributes: ["from": .string("original")], relationships: parents)
        }
        var inserts = CloneParentChoiceTests.parents
        inserts += [
            // Depth 2 through A and through B: B comes first (`bs` before `as`), although
            // `A.leaves` is numbered before `B.leaves`.
            leaf(["a": .toOne(.inserted(1)), "b": .toOne(.inserted(2))]),
            // Depth 2 through A, depth 3 through C and D, whose branch the walk starts first.
            leaf(["a": .toOne(.inserted(1)), "d": .toOne(.inserted(4))]),
            leaf(["d": .toOne(.inserted(4))]),
        ]
        inserts += (0..<extraLeaves).map { _ in leaf(["d": .toOne(.inserted(4))]) }
        inserts += (0..<extraLeaves).map { _ in
            ChangeSet.Insert(entity: "C", attributes: ["code": .string("c")], relationships: ["root": .toOne(.inserted(0))])
        }
        let ids = try fixture.insert(inserts)
        let result = try fixture.engine.clone(CloneRequest(entity: "Root", id: ids[0], returnIDs: true, copies: 2))
        #expect(result.created == ["Root": 2, "A": 2, "B": 2, "C": 2 + 2 * extraLeaves, "D": 2, "Leaf": 6 + 2 * extraLeaves])
        for (copy, map) in try #require(result.copyIDs).enumerated() {
            let from = { (old: Int64) in try fixture.object("Leaf", try #require(map["Leaf"]?[old])).attributes["from"] }
            #expect(try from(ids[5]) == .string("b"), "copy \(copy): the parent met first at the shallowest depth")
            #expect(try from(ids[6]) == .string("a"), "copy \(copy): the shallowest arrival, not the branch walked first")
            #expect(try from(ids[7]) == .string("d"), "copy \(copy): the only parent")
            if extraLeaves > 0 { #expect(try from(ids[7 + extraLeaves]) == .string("d")) }
        }
    }
}
