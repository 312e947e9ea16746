import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// Where Cloner goes past MOCloner: identity, cycles, depth, remapping.
@Suite struct CloneIdentityTests {
    /// Boards, columns, cards and labels, and a self-referential folder tree.
    static let boardModel = CloneFixture.boardModel

    @Test(arguments: StoreBackendKind.available) func objectReachedTwiceIsClonedOnce(_ backend: StoreBackendKind) throws {
        // In the sample model every memo is reached through Note.memos and through
        // Item → ItemData → memo: a diamond.
        let fixture = try CloneFixture(backend)
        let sample = try fixture.makeSampleNote(items: 5)
        let before = try fixture.rowCounts()
        let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, returnIDs: true))
        #expect(result.created == ["Note": 1, "NoteDescription": 1, "Item": 5, "ItemData": 5, "Memo": 5])
        #expect(try fixture.rowCounts()["Memo"] == before["Memo"]! + 5)
        // The memo reached both ways is one object: its item data and its note are both clones.
        for (index, memo) in sample.memos.enumerated() {
            let clone = result.ids!["Memo"]![memo]!
            #expect(try fixture.toOne("Memo", clone, "itemData") == result.ids!["ItemData"]![sample.itemDatas[index]])
            #expect(try fixture.toOne("Memo", clone, "note") == result.clone.id)
        }
    }

    @Test(arguments: StoreBackendKind.available) func sharedReferencesInsideTheCloneSetPointAtTheClones(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(modelJSON: CloneIdentityTests.boardModel, backend)
        let ids = try fixture.insert([
            ChangeSet.Insert(entity: "Board", attributes: ["title": .string("Sprint")]),
            ChangeSet.Insert(entity: "Label", attributes: ["name": .string("bug")], relationships: ["board": .toOne(.inserted(0))]),
            ChangeSet.Insert(entity: "Label", attributes: ["name": .string("ux")], relationships: ["board": .toOne(.inserted(0))]),
            ChangeSet.Insert(entity: "Column", attributes: ["title": .string("todo")], relationships: ["board": .toOne(.inserted(0))]),
            ChangeSet.Insert(
                entity: "Card", attributes: ["title": .string("fix")],
                relationships: ["column": .toOne(.inserted(3)), "labels": .toMany([.inserted(1), .inserted(2)])]),
            ChangeSet.Insert(
                entity: "Card", attributes: ["title": .string("polish")], relationships: ["column": .toOne(.inserted(3)), "labels": .toMany([.inserted(2)])]),
        ])
        let result = try fixture.engine.clone(CloneRequest(entity: "Board", id: ids[0], returnIDs: true))
        #expect(result.created == ["Board": 1, "Label": 2, "Column": 1, "Card": 2])
        #expect(result.linked.isEmpty, "every label a card uses belongs to the cloned board")
        let labelMap = result.ids!["Label"]!
        let cardMap = result.ids!["Card"]!
        #expect(Set(try fixture.toMany("Card", cardMap[ids[4]]!, "labels")) == [labelMap[ids[1]]!, labelMap[ids[2]]!])
        #expect(try fixture.toMany("Card", cardMap[ids[5]]!, "labels") == [labelMap[ids[2]]!])
        #expect(Set(try fixture.toMany("Label", ids[2], "cards")) == [ids[4], ids[5]], "original labels keep only original cards")
    }

    @Test(arguments: StoreBackendKind.available) func cyclesThroughInverseLessToOneTerminate(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(modelJSON: CloneIdentityTests.boardModel, backend)
        let ids = try fixture.insert([
            ChangeSet.Insert(entity: "Board", attributes: ["title": .string("b")]),
            ChangeSet.Insert(entity: "Column", attributes: ["title": .string("c")], relationships: ["board": .toOne(.inserted(0))]),
            ChangeSet.Insert(entity: "Card", attributes: ["title": .string("a")], relationships: ["column": .toOne(.inserted(1))]),
            ChangeSet.Insert(
                entity: "Card", attributes: ["title": .string("b")], relationships: ["column": .toOne(.inserted(1)), "next": .toOne(.inserted(4))]),
            ChangeSet.Insert(
                entity: "Card", attributes: ["title": .string("c")], relationships: ["column": .toOne(.inserted(1)), "next": .toOne(.inserted(2))]),
        ])
        let (a, b, c) = (ids[2], ids[3], ids[4])
        try fixture.store.write {
            _ = try $0.save(ChangeSet(updates: [ChangeSet.Update(entity: "Card", id: a, relationships: ["next": .toOne(.existing(b))])]))
        }
        let result = try fixture.engine.clone(CloneRequest(entity: "Card", id: a, returnIDs: true))
        let map = result.ids!["Card"]!
        #expect(result.created == ["Card": 3])
        #expect(try fixture.toOne("Card", map[a]!, "next") == map[b])
        #expect(try fixture.toOne("Card", map[b]!, "next") == map[c])
        #expect(try fixture.toOne("Card", map[c]!, "next") == map[a])
        // The clones joined the original column (shared), at its end, in original order.
        #expect(try fixture.toMany("Column", ids[1], "cards") == [a, b, c, map[a]!, map[b]!, map[c]!])
    }

    private func makeTree(_ fixture: CloneFixture, depth: Int, fanOut: Int) throws -> (root: Int64, count: Int) {
        var inserts = [ChangeSet.Insert(entity: "Folder", attributes: ["name": .string("root"), "rootID": .uuid(UUID())])]
        var level = [0]
        for _ in 1..<depth {
            var next: [Int] = []
            for parent in level {
                for _ in 0..<fanOut {
                    next.append(inserts.count)
                    inserts.append(
                        ChangeSet.Insert(
                            entity: "Folder", attributes: ["name": .string("f\(inserts.count)")], relationships: ["parent": .toOne(.inserted(parent))]))
                }
            }
            level = next
        }
        let ids = try fixture.insert(inserts)
        return (ids[0], ids.count)
    }

    @Test(arguments: StoreBackendKind.available) func selfReferentialTreeIsClonedToFullDepth(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(modelJSON: CloneIdentityTests.boardModel, backend)
        let (root, count) = try makeTree(fixture, depth: 3, fanOut: 2)
        let newRootID = UUID()
        let result = try fixture.engine.clone(CloneRequest(entity: "Folder", id: root, set: ["rootID": .uuid(newRootID)], returnIDs: true))
        #expect(count == 7)
        #expect(result.created == ["Folder": 7])
        let map = result.ids!["Folder"]!
        for (old, new) in map where old != root {
            let originalParent = try #require(try fixture.toOne("Folder", old, "parent"))
            #expect(try fixture.toOne("Folder", new, "parent") == map[originalParent])
            #expect(try fixture.object("Folder", new).attributes["rootID"] == .uuid(newRootID), "the set root id flows down every level")
        }
        #expect(try fixture.toOne("Folder", result.clone.id, "parent") == nil)
    }

    @Test func chainFiveThousandDeepDoesNotOverflow() throws {
        let fixture = try CloneFixture(modelJSON: CloneIdentityTests.boardModel, .sqlite)
        let (root, count) = try makeTree(fixture, depth: 5000, fanOut: 1)
        let newRootID = UUID()
        let result = try fixture.engine.clone(CloneRequest(entity: "Folder", id: root, set: ["rootID": .uuid(newRootID)]))
        #expect(count == 5000)
        #expect(result.created == ["Folder": 5000])
        let stats = try fixture.store.read { context -> (Int64, Int64) in
            let pointingOut =
                try context.sqliteConnection.scalar("SELECT count(*) FROM \"Folder\" WHERE \"_id\" > \(count) AND \"parent\" <= \(count)")?.int64 ?? -1
            let carrying =
                try context.sqliteConnection.scalar("SELECT count(*) FROM \"Folder\" WHERE \"rootID\" = ?", [.text(newRootID.uuidString.lowercased())])?.int64
                ?? -1
            return (pointingOut, carrying)
        }
        #expect(stats.0 == 0, "no clone points back into the original chain")
        #expect(stats.1 == 5000)
    }

    @Test(arguments: StoreBackendKind.available) func qualifiedExclusionAppliesWhereverTheEntityOccurs(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let sample = try fixture.makeSampleNote(items: 3)
        let result = try fixture.engine.clone(
            CloneRequest(entity: "Note", id: sample.note, exclude: ["Item.itemDatas", "Memo.itemData", "Item.name"], returnIDs: true))
        // Item data is reachable through items and through memos: excluding both ways leaves it out;
        // memos still come through Note.memos.
        #expect(result.created == ["Note": 1, "NoteDescription": 1, "Item": 3, "Memo": 3])
        for memo in try fixture.toMany("Note", result.clone.id, "memos") {
            #expect(try fixture.toOne("Memo", memo, "itemData") == nil)
        }
        for item in try fixture.toMany("Note", result.clone.id, "items") {
            #expect(try fixture.toMany("Item", item, "itemDatas").isEmpty)
            #expect(try fixture.object("Item", item).attributes["name"] == .null)
        }
    }

    @Test(arguments: StoreBackendKind.available) func bareExclusionAppliesToTheRootOnly(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let sample = try fixture.makeSampleNote(items: 2)
        let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, exclude: ["name", "memos", "data"]))
        let clone = try fixture.object("Note", result.clone.id)
        #expect(clone.attributes["name"] == .null)
        #expect(clone.attributes["data"] == .null)
        // Memos are not taken through Note.memos, but still through the items; a memo clone
        // whose note is the cloned root joins the clone's list (setting Memo.note sets the inverse).
        #expect(result.created["Memo"] == 2)
    }

    @Test(arguments: StoreBackendKind.available) func setOverridesTheRootsValues(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let sample = try fixture.makeSampleNote(items: 2)
        let chosen = UUID()
        let result = try fixture.engine.clone(
            CloneRequest(
                entity: "Note", id: sample.note,
                set: [
                    "name": .string("Copy of Groceries"), "index": .integer(42), "id": .uuid(chosen),
                ]))
        let clone = try fixture.object("Note", result.clone.id)
        #expect(clone.attributes["name"] == .string("Copy of Groceries"))
        #expect(clone.attributes["index"] == .integer(42))
        #expect(clone.attributes["id"] == .uuid(chosen), "set wins over rebuild")
        for item in try fixture.toMany("Note", result.clone.id, "items") {
            #expect(try fixture.object("Item", item).attributes["noteID"] == .uuid(chosen), "children follow the set value")
        }
    }

    @Test(arguments: StoreBackendKind.available) func setCanMoveAClonedItemIntoAnotherNote(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let first = try fixture.makeSampleNote(name: "A", items: 1)
        let second = try fixture.makeSampleNote(name: "B", items: 2)
        let result = try fixture.engine.clone(CloneRequest(entity: "Item", id: first.items[0], set: ["note": .integer(second.note)]))
        #expect(try fixture.toMany("Note", second.note, "items") == second.items + [result.clone.id])
        #expect(try fixture.toMany("Note", first.note, "items") == first.items)
    }
}

@Suite struct CloneSetLinksTests {
    /// A set to-many list is linked by every copy: its `_id`s count toward `maximumSetBytes` once
    /// per copy, 8 bytes each — 2 tags × 3 copies are 48 bytes.
    @Test func aSetListCountsOncePerCopyTowardTheSetBytes() throws {
        let fixture = try CloneFixture()
        let tags = try fixture.makeTags(["a", "b"])
        let sample = try fixture.makeSampleNote(items: 1, tags: [tags[0]])
        func clone(limit: Int) throws -> CloneResult {
            try fixture.engine.clone(
                CloneRequest(entity: "Memo", id: sample.memos[0], setLinks: ["tags": tags], copies: 3, maximumSetBytes: limit))
        }
        #expect {
            try clone(limit: 47)
        } throws: { error in
            guard case CloneError.invalidRequest("set", let message) = error else { return false }
            return message.contains("maxCloneSetBytes")
        }
        #expect(try fixture.ids("Memo").count == 1, "nothing written")
        #expect(try clone(limit: 48).clones?.count == 3)
    }

    @Test(arguments: StoreBackendKind.available) func setReplacesAToManyOfTheRootsClone(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let tags = try fixture.makeTags(["a", "b", "c"])
        let sample = try fixture.makeSampleNote(items: 1, tags: [tags[0]])
        let result = try fixture.engine.clone(CloneRequest(entity: "Memo", id: sample.memos[0], setLinks: ["tags": [tags[2], tags[1]]]))
        #expect(Set(try fixture.toMany("Memo", result.clone.id, "tags")) == [tags[1], tags[2]])
        #expect(try fixture.toMany("Memo", sample.memos[0], "tags") == [tags[0]], "the original keeps its tags")
        #expect(try fixture.toMany("Tag", tags[2], "memos") == [result.clone.id])
        #expect(result.linked["Tag"] == 2)
        #expect {
            try fixture.engine.clone(CloneRequest(entity: "Memo", id: sample.memos[0], setLinks: ["tags": [999]]))
        } throws: { error in
            guard case CloneError.invalidRequest("set.tags", _) = error else { return false }
            return true
        }
    }
}
