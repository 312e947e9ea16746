import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// A to-many the request sets on the root (`"set": {"cards": [3, 1]}`, relationship rule 8, docs/architecture.md#set-on-the-root) with
/// many copies (docs/architecture.md#many-copies): linked for every copy at once, in a number of statements that does not
/// grow with the copies, with the rows, positions and versions one save per copy gave.
extension CloneCopiesTests {
    /// Every kind of to-many a `set` can link through: ordered on both sides (`Board.cards` ↔
    /// `Card.boards`, stored from `Board`'s side, so a Card root sees the table reversed),
    /// unordered (`labels`), ordered and its own inverse (`pals`), ordered without an inverse (`pins`).
    static let linksModel = """
        { "entities": [
          { "name": "Board", "attributes": [ { "name": "name", "type": "string" } ],
            "relationships": [
              { "name": "cards", "destination": "Card", "toMany": true, "ordered": true, "inverse": "boards" },
              { "name": "labels", "destination": "Label", "toMany": true, "inverse": "boards" },
              { "name": "pals", "destination": "Board", "toMany": true, "ordered": true, "inverse": "pals" },
              { "name": "pins", "destination": "Card", "toMany": true, "ordered": true } ] },
          { "name": "Card", "attributes": [ { "name": "title", "type": "string" } ],
            "relationships": [
              { "name": "boards", "destination": "Board", "toMany": true, "ordered": true, "inverse": "cards" } ] },
          { "name": "Label", "attributes": [ { "name": "name", "type": "string" } ],
            "relationships": [
              { "name": "boards", "destination": "Board", "toMany": true, "inverse": "labels" } ] }
        ] }
        """

    /// Cards c1…c3, a label, boards p1 and p2, a board `other` already on c1's and p1's lists,
    /// and the source board linked to c1, c2, p1 and the label (so c1 and p1 list other, source).
    struct LinkedBoards {
        var cards: [Int64]
        var label: Int64
        var pals: [Int64]
        var other: Int64
        var source: Int64
    }

    static func makeLinkedBoards(_ fixture: CloneFixture) throws -> LinkedBoards {
        func board(_ name: String, _ links: [String: [Int64]] = [:]) -> ChangeSet.Insert {
            ChangeSet.Insert(
                entity: "Board", attributes: ["name": .string(name)],
                relationships: links.mapValues { .toMany($0.map { .existing($0) }) })
        }
        let cards = try fixture.insert((1...3).map { ChangeSet.Insert(entity: "Card", attributes: ["title": .string("c\($0)")]) })
        let label = try fixture.insert([ChangeSet.Insert(entity: "Label", attributes: ["name": .string("l")])])[0]
        let pals = try fixture.insert([board("p1"), board("p2")])
        let other = try fixture.insert([board("other", ["cards": [cards[0]], "pals": [pals[0]]])])[0]
        let source = try fixture.insert([board("source", ["cards": [cards[0], cards[1]], "pals": [pals[0]], "labels": [label], "pins": [cards[1]]])])[0]
        return LinkedBoards(cards: cards, label: label, pals: pals, other: other, source: source)
    }

    /// Every object's version, by entity and id.
    static func versions(_ fixture: CloneFixture) throws -> [String: [Int64: Int64]] {
        var versions: [String: [Int64: Int64]] = [:]
        for entity in ["Board", "Card", "Label"] {
            for id in try fixture.ids(entity) { versions[entity, default: [:]][id] = try fixture.object(entity, id).version }
        }
        return versions
    }

    @Test(arguments: StoreBackendKind.available)
    func aToManySetOnManyCopiesLinksEachCopyInOrderAtTheEndOfEachTarget(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(modelJSON: Self.linksModel, backend)
        let boards = try Self.makeLinkedBoards(fixture)
        let (c1, c2, c3) = (boards.cards[0], boards.cards[1], boards.cards[2])
        let (p1, p2) = (boards.pals[0], boards.pals[1])
        #expect(try fixture.toMany("Card", c1, "boards") == [boards.other, boards.source])
        #expect(try fixture.toMany("Board", p1, "pals") == [boards.other, boards.source])
        let before = try Self.versions(fixture)

        let result = try fixture.engine.clone(
            CloneRequest(
                entity: "Board", id: boards.source,
                setLinks: ["cards": [c3, c1], "pals": [p2, p1], "labels": [boards.label], "pins": [c3, c2]], copies: 3))
        let clones = try #require(result.clones).map(\.id)
        #expect(clones.count == 3)
        #expect(result.created == ["Board": 3])
        #expect(result.linked == ["Card": 3, "Board": 2, "Label": 1], "each linked object once, however many copies link it")
        for (copy, clone) in clones.enumerated() {
            #expect(try fixture.toMany("Board", clone, "cards") == [c3, c1], "copy \(copy): the listed order")
            #expect(try fixture.toMany("Board", clone, "pals") == [p2, p1])
            #expect(try fixture.toMany("Board", clone, "labels") == [boards.label])
            #expect(try fixture.toMany("Board", clone, "pins") == [c3, c2])
        }
        #expect(try fixture.toMany("Card", c1, "boards") == [boards.other, boards.source] + clones, "the copies join the end, in copy order")
        #expect(try fixture.toMany("Card", c3, "boards") == clones)
        #expect(try fixture.toMany("Card", c2, "boards") == [boards.source], "pins has no inverse")
        #expect(try fixture.toMany("Board", p1, "pals") == [boards.other, boards.source] + clones, "a self-inverse link is mirrored at the end")
        #expect(try fixture.toMany("Board", p2, "pals") == clones)
        #expect(Set(try fixture.toMany("Label", boards.label, "boards")) == Set([boards.source] + clones))
        #expect(try fixture.toMany("Board", boards.source, "cards") == [c1, c2], "the source is untouched")
        #expect(try fixture.toMany("Board", boards.source, "pals") == [p1])

        // Versions as one save per copy left them: each copy once (its list was set after its
        // row was written), each object whose inverse list changed once, nothing else.
        var expected = before
        for id in [c1, c3] { expected["Card"]![id]! += 1 }
        for id in [p1, p2] { expected["Board"]![id]! += 1 }
        expected["Label"]![boards.label]! += 1
        for clone in clones { expected["Board"]![clone] = 2 }
        #expect(try Self.versions(fixture) == expected)

        // The same table seen from its other side: a Card root lists boards (the table's `dst`).
        let cardCopies = try #require(
            try fixture.engine.clone(
                CloneRequest(
                    entity: "Card", id: c2, setLinks: ["boards": [p2, boards.other]], copies: 2)
            ).clones
        ).map(\.id)
        for clone in cardCopies {
            #expect(try fixture.toMany("Card", clone, "boards") == [p2, boards.other])
        }
        #expect(try fixture.toMany("Board", boards.other, "cards") == [c1] + cardCopies)
        #expect(try fixture.toMany("Board", p2, "cards") == cardCopies)
        #expect(try fixture.object("Board", p2).version == expected["Board"]![p2]! + 1)
        #expect(try cardCopies.map { try fixture.object("Card", $0).version } == [2, 2])
    }

    /// `pins` is owned, so the walk copies c2, and c2's copy links back to the root's copy through
    /// `Card.boards` (rule 4): the list `set` gives `cards` replaces that link too (rule 8).
    @Test(arguments: StoreBackendKind.available)
    func aToManySetReplacesWhatTheWalkLinkedBackToTheRootsCopy(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(modelJSON: Self.linksModel, backend)
        let boards = try Self.makeLinkedBoards(fixture)
        let (c2, c3) = (boards.cards[1], boards.cards[2])
        for list in [[c3], []] {
            let result = try fixture.engine.clone(
                CloneRequest(
                    entity: "Board", id: boards.source, setLinks: ["cards": list],
                    returnIDs: true, copies: 2))
            let clones = try #require(result.clones).map { $0.id }
            for (copy, clone) in clones.enumerated() {
                let c2Copy = try #require(result.copyIDs?[copy]["Card"]?[c2])
                #expect(try fixture.toMany("Board", clone, "cards") == list, "copy \(copy) of \(list)")
                #expect(try fixture.toMany("Card", c2Copy, "boards") == [])
                #expect(try fixture.object("Board", clone).version == 2, "its list changed")
                #expect(try fixture.object("Card", c2Copy).version == 2, "its list changed")
            }
        }
        let untouched = try fixture.engine.clone(CloneRequest(entity: "Board", id: boards.source, setLinks: ["labels": []], copies: 2))
        #expect(try untouched.clones!.map { try fixture.object("Board", $0.id).version } == [1, 1], "an empty list on an empty list changes nothing")
    }

    /// A folder's `featured` doc is owned, so the walk copies it, and the copy's `folder` (shared:
    /// its inverse is to-many) is re-pointed to the root's copy. `"set": {"docs": []}` empties the
    /// copy's list: the doc copy leaves it — or, when a doc must have a folder, the clone is refused.
    static func foldersModel(docFolderOptional: Bool) -> String {
        """
        { "entities": [
          { "name": "Folder", "attributes": [ { "name": "name", "type": "string" } ],
            "relationships": [
              { "name": "docs", "destination": "Doc", "toMany": true, "ordered": true, "inverse": "folder", "deleteRule": "cascade" },
              { "name": "featured", "destination": "Doc" } ] },
          { "name": "Doc", "attributes": [ { "name": "title", "type": "string" } ],
            "relationships": [
              { "name": "folder", "destination": "Folder", "inverse": "docs", "optional": \(docFolderOptional) } ] }
        ] }
        """
    }

    @Test(arguments: StoreBackendKind.available)
    func emptyingAToManyWithAToOneInverseUnlinksWhatTheWalkLinked(_ backend: StoreBackendKind) throws {
        for optional in [true, false] {
            let fixture = try CloneFixture(modelJSON: Self.foldersModel(docFolderOptional: optional), backend)
            let ids = try fixture.insert([
                ChangeSet.Insert(entity: "Folder", attributes: ["name": .string("f")]),
                ChangeSet.Insert(entity: "Doc", attributes: ["title": .string("d")], relationships: ["folder": .toOne(.inserted(0))]),
            ])
            try fixture.store.write {
                _ = try $0.save(ChangeSet(updates: [ChangeSet.Update(entity: "Folder", id: ids[0], relationships: ["featured": .toOne(.existing(ids[1]))])]))
            }
            let before = try fixture.rowCounts()
            let request = CloneRequest(entity: "Folder", id: ids[0], setLinks: ["docs": []], returnIDs: true, copies: 3)
            guard optional else {
                #expect {
                    try fixture.engine.clone(request)
                } throws: { error in
                    guard case StoreError.requiredRelationship("Doc", "folder") = error else { return false }
                    return true
                }
                #expect(try fixture.rowCounts() == before, "nothing of any copy is left")
                continue
            }
            let result = try fixture.engine.clone(request)
            for (copy, clone) in try #require(result.clones).map({ $0.id }).enumerated() {
                let docCopy = try #require(result.copyIDs?[copy]["Doc"]?[ids[1]])
                #expect(try fixture.toOne("Folder", clone, "featured") == docCopy)
                #expect(try fixture.toMany("Folder", clone, "docs") == [])
                #expect(try fixture.toOne("Doc", docCopy, "folder") == nil)
                #expect(try fixture.object("Folder", clone).version == 2 && fixture.object("Doc", docCopy).version == 2, "both lists changed")
            }
            #expect(try fixture.toMany("Folder", ids[0], "docs") == [ids[1]], "the source is untouched")
        }
    }

    @Test(arguments: StoreBackendKind.available)
    func aToManySetInADryRunWritesNothing(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(modelJSON: Self.linksModel, backend)
        let boards = try Self.makeLinkedBoards(fixture)
        let before = try fixture.rowCounts()
        let versions = try Self.versions(fixture)
        let dry = try fixture.engine.clone(
            CloneRequest(
                entity: "Board", id: boards.source,
                setLinks: ["cards": [boards.cards[2]], "pals": [boards.pals[1]], "labels": [], "pins": [boards.cards[1]]], dryRun: true, copies: 4))
        #expect(dry.created == ["Board": 4])
        #expect(dry.linked == ["Card": 2, "Board": 1])
        #expect(try fixture.rowCounts() == before)
        #expect(try Self.versions(fixture) == versions)
    }

    @Test(arguments: StoreBackendKind.available)
    func statementsDoNotGrowWithTheNumberOfCopiesOfAToManySet(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(modelJSON: Self.linksModel, backend)
        let boards = try Self.makeLinkedBoards(fixture)
        func statements(_ copies: Int) throws -> Int {
            let plan = try fixture.engine.plan(
                CloneRequest(
                    entity: "Board", id: boards.source,
                    setLinks: ["cards": [boards.cards[2], boards.cards[0]], "pals": [boards.pals[1]], "labels": [boards.label]], copies: copies))
            return try fixture.store.write { context in
                let copy = { try context.copyGraph(plan.copy, now: Date(), progress: GraphCopyProgress()) }
                switch backend {
                case .sqlite: return try context.sqliteConnection.countingStatements(copy).statements
                case .postgreSQL: return try context.postgreSQLConnection.countingCommands(copy).commands
                }
            }
        }
        _ = try statements(1)  // warm the statement cache's first preparation out of the picture
        let two = try statements(2)
        let many = try statements(60)
        #expect(two > 5)
        #expect(many == two, "\(two) statements for 2 copies, \(many) for 60")
    }
}
