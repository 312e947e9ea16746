import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// Many copies in one request (docs/architecture.md#many-copies).
@Suite struct CloneCopiesTests {
    @Test func everyCopyIsCompleteAndIndependent() throws {
        let fixture = try CloneFixture()
        let tags = try fixture.makeTags(["x", "y", "z"])
        let sample = try fixture.makeSampleNote(items: 4, tags: tags)
        let original = try fixture.object("Note", sample.note)
        let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, returnIDs: true, copies: 3))

        let clones = try #require(result.clones).map(\.id)
        #expect(clones.count == 3 && Set(clones).count == 3 && !clones.contains(sample.note))
        #expect(result.clone.id == clones[0], "clone stays the first copy")
        #expect(result.created == ["Note": 3, "NoteDescription": 3, "Item": 12, "ItemData": 12, "Memo": 12])
        #expect(result.linked == ["Tag": 3])
        #expect(result.ids == nil)

        var seenItems: Set<Int64> = Set(sample.items)
        var uuids: Set<AttributeValue> = [original.attributes["id"]!]
        var dates: Set<AttributeValue> = []
        for (copy, clone) in clones.enumerated() {
            let note = try fixture.object("Note", clone)
            #expect(uuids.insert(note.attributes["id"]!).inserted, "copy \(copy) has its own rebuilt id")
            dates.insert(note.attributes["createDate"]!)
            let items = try fixture.toMany("Note", clone, "items")
            #expect(items.count == 4)
            for item in items {
                #expect(seenItems.insert(item).inserted, "copy \(copy)'s items are its own")
                #expect(try fixture.toOne("Item", item, "note") == clone)
                #expect(try fixture.object("Item", item).attributes["noteID"] == note.attributes["id"], "followParent per copy")
            }
            let memos = try fixture.toMany("Note", clone, "memos")
            #expect(try memos.map { try fixture.object("Memo", $0).attributes["text"] } == (0..<4).map { .string("memo \($0)") })
            let description = try #require(try fixture.toOne("Note", clone, "noteDescription"))
            #expect(description != sample.description)
            let ids = try #require(result.copyIDs?[copy])
            #expect(ids["Note"] == [sample.note: clone])
            #expect(Set(ids["Item"]!.values) == Set(items))
        }
        #expect(dates.count == 1, "rebuild: now is one timestamp for the whole request")
        for tag in tags {
            #expect(try fixture.toMany("Tag", tag, "memos").count == 4 + 3 * 4, "a shared tag gains every copy's memos")
        }
        #expect(try fixture.toMany("Note", sample.note, "items") == sample.items, "the source is untouched")
    }

    @Test func perCopySetIsMergedOverTheRequestSet() throws {
        let fixture = try CloneFixture()
        let sample = try fixture.makeSampleNote(items: 1)
        let templates = try fixture.insert(
            (0..<3).map {
                ChangeSet.Insert(entity: "Note", attributes: ["id": .uuid(UUID()), "name": .string("t\($0)"), "createDate": .date(millisecondsSince1970: 0)])
            })
        let result = try fixture.engine.clone(
            CloneRequest(
                entity: "Note", id: sample.note, set: ["name": .string("Base"), "index": .integer(9)], copies: 3,
                copySets: [
                    ["name": .string("A"), "template": .integer(templates[0])], ["template": .integer(templates[1])],
                    ["index": .integer(1), "template": .integer(templates[1])],
                ]))
        let notes = try result.clones!.map { try fixture.object("Note", $0.id) }
        #expect(notes.map { $0.attributes["name"] } == [.string("A"), .string("Base"), .string("Base")])
        #expect(notes.map { $0.attributes["index"] } == [.integer(9), .integer(9), .integer(1)])
        #expect(try result.clones!.map { try fixture.toOne("Note", $0.id, "template") } == [templates[0], templates[1], templates[1]])
        #expect(result.linked["Note"] == 2)
    }

    @Test func aRelationshipSetForOneCopyMustBeSetForEvery() throws {
        let fixture = try CloneFixture()
        let sample = try fixture.makeSampleNote(items: 1)
        #expect {
            try fixture.engine.clone(
                CloneRequest(
                    entity: "Note", id: sample.note, copies: 2,
                    copySets: [["noteDescription": .null], [:]]))
        } throws: { error in
            guard case CloneError.invalidRequest("copies[0].set.noteDescription", _) = error else { return false }
            return true
        }
    }

    @Test(arguments: StoreBackendKind.available) func aUniqueClashInOneCopyRollsBackEveryCopyAndNamesIt(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let sample = try fixture.makeSampleNote(items: 3)
        let originalID = try fixture.object("Note", sample.note).attributes["id"]!
        let before = try fixture.rowCounts()
        let fresh = AttributeValue.uuid(UUID())
        #expect {
            try fixture.engine.clone(
                CloneRequest(
                    entity: "Note", id: sample.note, copies: 4,
                    copySets: [["id": fresh], [:], [:], ["id": fresh]]))
        } throws: { error in
            guard case CloneError.inCopy(3, .conflict("Note", "id", true)) = error else { return false }
            return true
        }
        #expect {
            try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, copies: 3, copySets: [[:], ["id": originalID], [:]]))
        } throws: { error in
            guard case CloneError.inCopy(1, .conflict("Note", "id", true)) = error else { return false }
            return true
        }
        #expect(try fixture.rowCounts() == before)
    }

    @Test func dryRunCountsEveryCopyAndWritesNothing() throws {
        let fixture = try CloneFixture()
        let sample = try fixture.makeSampleNote(items: 5)
        let before = try fixture.rowCounts()
        let single = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, dryRun: true))
        let dry = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, dryRun: true, copies: 4))
        #expect(try fixture.rowCounts() == before)
        #expect(dry.created == single.created.mapValues { $0 * 4 })
        let real = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, copies: 4))
        #expect(real.created == dry.created)
        #expect(real.clones == dry.clones, "the dry run names the ids the copies get")
    }

    @Test func limitsCountEveryCopy() throws {
        let fixture = try CloneFixture()
        let sample = try fixture.makeSampleNote(items: 3)
        #expect {
            try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, maximumObjects: 30, copies: 3))
        } throws: { error in
            guard case CloneError.tooLarge(33, 30) = error else { return false }
            return true
        }
        for copies in [0, 1_001] {
            #expect {
                try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, copies: copies))
            } throws: { error in
                guard case CloneError.invalidRequest("copies", _) = error else { return false }
                return true
            }
        }
    }

    /// SQLite numbers each copy's new ids after the highest id the table has used, copy after
    /// copy, in the originals' id order — so each INSERT writes its rows in id order, appending to
    /// the table. Both walks: by levels (a small note) and by the model's ways (600 items and 600
    /// memos).
    @Test(arguments: [4, 600]) func newIDsFollowTheOriginalsOrderCopyAfterCopy(_ items: Int) throws {
        let fixture = try CloneFixture()
        let sample = try fixture.makeSampleNote(items: items)
        let highest = try fixture.store.read { context in
            try ["Item", "Memo"].map { try context.sqliteConnection.scalar("SELECT max(\"_id\") FROM \(quoted($0))")?.int64 ?? 0 }
        }
        let copies = 3
        let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, returnIDs: true, copies: copies))
        for (entity, originals, before) in [("Item", sample.items, highest[0]), ("Memo", sample.memos, highest[1])] {
            for copy in 0..<copies {
                let ids = try #require(result.copyIDs?[copy][entity])
                let expected = originals.sorted().enumerated().map { before + Int64(copy * items + $0.offset + 1) }
                #expect(originals.sorted().map { ids[$0] ?? -1 } == expected, "\(entity) of copy \(copy)")
            }
        }
    }

    @Test func statementsDoNotGrowWithTheNumberOfCopies() throws {
        let fixture = try CloneFixture()
        let tags = try fixture.makeTags(["x"])
        let sample = try fixture.makeSampleNote(items: 5, tags: tags)
        func statements(_ copies: Int) throws -> (count: Int, created: Int) {
            let plan = try fixture.engine.plan(
                CloneRequest(
                    entity: "Note", id: sample.note, returnIDs: true, copies: copies,
                    copySets: (0..<copies).map { ["name": .string("copy \($0)")] }))
            return try fixture.store.write { context in
                let (result, count) = try context.sqliteConnection.countingStatements {
                    try context.copyGraph(plan.copy, now: Date(), progress: GraphCopyProgress())
                }
                return (count, result.created.values.reduce(0, +))
            }
        }
        _ = try statements(1)  // warm the statement cache's first preparation out of the picture
        let two = try statements(2)
        let many = try statements(60)
        #expect(many.created == 30 * two.created)
        #expect(two.count > 10)
        #expect(many.count == two.count, "\(two.count) statements for 2 copies, \(many.count) for 60")
    }

    /// An INSERT … SELECT that reads its own table makes SQLite buffer every row it writes in an
    /// ephemeral table (a temp file once large): for N copies, N times the source's blobs. Many
    /// copies read staged source rows instead, so no row INSERT into a model table buffers — but
    /// the one that appends rows to an original owner's ordered list (only rows whose owner is
    /// not copied, none in a note's clone), whose window function SQLite buffers anyway.
    @Test func manyCopiesStreamTheirRowsWithoutBufferingThem() throws {
        let fixture = try CloneFixture()
        let tags = try fixture.makeTags(["x"])
        let sample = try fixture.makeSampleNote(items: 5, tags: tags)
        let tables = Set(try CloneFixture.sampleModel().entities.map { "INSERT INTO \"\($0.name)\"" })
        func buffering(copies: Int) throws -> (inserts: Int, buffered: [String]) {
            let plan = try fixture.engine.plan(CloneRequest(entity: "Note", id: sample.note, copies: copies))
            return try fixture.store.write { context in
                let connection = context.sqliteConnection
                let (_, statements) = try connection.recordingStatements {
                    try context.copyGraph(plan.copy, now: Date(), progress: GraphCopyProgress())
                }
                let inserts = statements.filter { statement in
                    tables.contains { statement.hasPrefix($0 + " ") } && !statement.contains("row_number() OVER")
                }
                var buffered: [String] = []
                for insert in inserts {
                    var opcodes: [String] = []
                    try connection.forEachRow("EXPLAIN " + insert) { opcodes.append($0.string(1)) }
                    if opcodes.contains("OpenEphemeral") { buffered.append(insert) }
                }
                return (inserts.count, buffered)
            }
        }
        let single = try buffering(copies: 1)
        #expect(!single.buffered.isEmpty, "a single copy's INSERTs read their own table (SQLite buffers them): the check sees it")
        let many = try buffering(copies: 4)
        #expect(many.inserts >= 5)
        #expect(many.buffered.isEmpty, "buffered: \(many.buffered)")
    }
}
