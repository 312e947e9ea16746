import ClonerModel
import Foundation
import Testing

@testable import ClonerStore

/// When a large clone's walk on PostgreSQL is written as one join per way down the model, and in
/// which order the ways are met: the order decides which parent an object reached twice follows,
/// so a model whose order only its rows could tell is left to the recursive walk.
@Suite struct GraphWalkPathTests {
    /// The ways of `root`'s walk as "Entity@depth via relationship", or nil for the recursion.
    private static func ways(_ modelJSON: String, root: String, excludedAtRoot: Set<String> = []) throws -> [String]? {
        let model = try ModelLoader.load(data: Data(modelJSON.utf8))
        let owned = Set(model.entities.flatMap(\.relationships).filter { $0.deleteRule == .cascade }.map(\.qualifiedName))
        let plan = GraphCopyPlan(rootEntity: root, rootID: 1, ownedRelationships: owned, excludedAtRoot: excludedAtRoot)
        let sql = PostgreSQLGraphCopySQL(
            plan: plan, schema: StoreSchema(model: model), settings: [:], perCopyWalk: false,
            sequences: model.entities.map { "s_\($0.name)" })
        return sql.walkPathList.map { paths in
            paths.map { path in
                let entity = model.entities[path.entityTag].name
                return path.edge.map { "\(entity)@\(path.depth) via \($0.relationship.qualifiedName)" } ?? "\(entity)@0"
            }
        }
    }

    /// The benchmark's note: item data and memos each reached twice, through the note's two lists.
    static let notes = """
        { "entities": [
          { "name": "Note", "relationships": [
              { "name": "items", "destination": "Item", "toMany": true, "ordered": true, "inverse": "note", "deleteRule": "cascade" },
              { "name": "memos", "destination": "Memo", "toMany": true, "ordered": true, "inverse": "note", "deleteRule": "cascade" } ] },
          { "name": "Item", "relationships": [
              { "name": "note", "destination": "Note", "inverse": "items" },
              { "name": "itemDatas", "destination": "ItemData", "toMany": true, "inverse": "item", "deleteRule": "cascade" } ] },
          { "name": "ItemData", "relationships": [
              { "name": "item", "destination": "Item", "inverse": "itemDatas" },
              { "name": "memo", "destination": "Memo", "inverse": "itemData", "deleteRule": "cascade" } ] },
          { "name": "Memo", "relationships": [
              { "name": "note", "destination": "Note", "inverse": "memos" },
              { "name": "itemData", "destination": "ItemData", "inverse": "memo", "deleteRule": "cascade" },
              { "name": "attachments", "destination": "Attachment", "toMany": true, "inverse": "memo", "deleteRule": "cascade" } ] },
          { "name": "Attachment", "relationships": [ { "name": "memo", "destination": "Memo", "inverse": "attachments" } ] }
        ] }
        """

    @Test func aNoteIsWalkedByItsWaysInBreadthFirstOrder() throws {
        #expect(
            try Self.ways(Self.notes, root: "Note") == [
                "Note@0",
                "Item@1 via Note.items", "Memo@1 via Note.memos",
                "ItemData@2 via Item.itemDatas", "ItemData@2 via Memo.itemData", "Attachment@2 via Memo.attachments",
                "Memo@3 via ItemData.memo",
                "Attachment@4 via Memo.attachments",
            ])
    }

    @Test func anEdgeTheRootDoesNotTakeStartsNoWay() throws {
        let expected = ["Note@0", "Memo@1 via Note.memos", "ItemData@2 via Memo.itemData", "Attachment@2 via Memo.attachments"]
        #expect(try Self.ways(Self.notes, root: "Note", excludedAtRoot: ["items"]) == expected)
    }

    /// A folder owning folders: each level is one more way, as deep as the rows go.
    @Test func aTreeIsLeftToTheRecursion() throws {
        let folders = """
            { "entities": [ { "name": "Folder", "relationships": [
                { "name": "parent", "destination": "Folder", "inverse": "children" },
                { "name": "children", "destination": "Folder", "toMany": true, "inverse": "parent", "deleteRule": "cascade" } ] } ] }
            """
        #expect(try Self.ways(folders, root: "Folder") == nil)
    }

    /// Owned many-to-many: one object can be reached from several parents along one way.
    @Test func anEdgeWithAToManyInverseIsLeftToTheRecursion() throws {
        let boards = """
            { "entities": [
              { "name": "Board", "relationships": [
                  { "name": "cards", "destination": "Card", "toMany": true, "inverse": "boards", "deleteRule": "cascade" } ] },
              { "name": "Card", "relationships": [
                  { "name": "boards", "destination": "Board", "toMany": true, "inverse": "cards" } ] } ] }
            """
        #expect(try Self.ways(boards, root: "Board") == nil)
        #expect(try Self.ways(boards, root: "Board", excludedAtRoot: ["cards"]) == ["Board@0"], "an edge never taken does not count")
    }

    /// A leaf reached at depth 3 through two ways that start with the same edge of the root: which
    /// comes first depends on the order of the A objects, which only the rows tell.
    @Test func twoWaysOfOneDepthFromOneEdgeOfTheRootAreLeftToTheRecursion() throws {
        let model = """
            { "entities": [
              { "name": "Root", "relationships": [
                  { "name": "as", "destination": "A", "toMany": true, "inverse": "root", "deleteRule": "cascade" } ] },
              { "name": "A", "relationships": [
                  { "name": "root", "destination": "Root", "inverse": "as" },
                  { "name": "bs", "destination": "B", "toMany": true, "inverse": "a", "deleteRule": "cascade" },
                  { "name": "cs", "destination": "C", "toMany": true, "inverse": "a", "deleteRule": "cascade" } ] },
              { "name": "B", "relationships": [
                  { "name": "a", "destination": "A", "inverse": "bs" },
                  { "name": "leaves", "destination": "Leaf", "toMany": true, "inverse": "b", "deleteRule": "cascade" } ] },
              { "name": "C", "relationships": [
                  { "name": "a", "destination": "A", "inverse": "cs" },
                  { "name": "leaves", "destination": "Leaf", "toMany": true, "inverse": "c", "deleteRule": "cascade" } ] },
              { "name": "Leaf", "relationships": [
                  { "name": "b", "destination": "B", "inverse": "leaves" },
                  { "name": "c", "destination": "C", "inverse": "leaves" } ] } ] }
            """
        #expect(try Self.ways(model, root: "Root") == nil)
        #expect(try Self.ways(model, root: "A") != nil, "from A the two ways start with different edges")
    }

    /// SQLite keeps each object from the first way that reaches it and goes on only from what a
    /// way kept, so it walks by ways only where an earlier way at the same entity goes on by every
    /// edge a later one does. Here X is reached from Y and from Z, one to one; the way from Z goes
    /// on by `X.y`, which the way from Y cannot take back (it arrived by its inverse): left to
    /// the levels.
    @Test func sqliteWalksByWaysOnlyWhereEveryKeptObjectGoesOn() throws {
        let sqliteWays = { (modelJSON: String) -> Int? in
            let model = try ModelLoader.load(data: Data(modelJSON.utf8))
            let owned = Set(model.entities.flatMap(\.relationships).filter { $0.deleteRule == .cascade }.map(\.qualifiedName))
            let plan = GraphCopyPlan(rootEntity: model.entities[0].name, rootID: 1, ownedRelationships: owned, excludedAtRoot: [])
            return SQLiteGraphCopySQL(plan: plan, schema: StoreSchema(model: model)).walkWays?.steps.count
        }
        #expect(try sqliteWays(Self.notes) == 7, "the note's seven ways after its root")
        let model = """
            { "entities": [
              { "name": "Root", "relationships": [
                  { "name": "ys", "destination": "Y", "toMany": true, "inverse": "root", "deleteRule": "cascade" },
                  { "name": "zs", "destination": "Z", "toMany": true, "inverse": "root", "deleteRule": "cascade" } ] },
              { "name": "Y", "relationships": [
                  { "name": "root", "destination": "Root", "inverse": "ys" },
                  { "name": "x", "destination": "X", "inverse": "y", "deleteRule": "cascade" } ] },
              { "name": "Z", "relationships": [
                  { "name": "root", "destination": "Root", "inverse": "zs" },
                  { "name": "x", "destination": "X", "inverse": "z", "deleteRule": "cascade" } ] },
              { "name": "X", "relationships": [
                  { "name": "y", "destination": "Y", "inverse": "x", "deleteRule": "cascade" },
                  { "name": "z", "destination": "Z", "inverse": "x", "deleteRule": "cascade" } ] }
            ] }
            """
        #expect(try Self.ways(model, root: "Root") != nil, "PostgreSQL walks it by ways")
        #expect(try sqliteWays(model) == nil)
    }
}
