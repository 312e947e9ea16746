import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import Foundation
import ClonerTestSupport
import ClonerTravel
import Testing

/// The export's walk (`StoreContext.walkGraph`, written over the backend-neutral context) finds
/// exactly the objects the copier's SQL walk copies, on graphs with diamonds, cycles through
/// inverse-less to-ones, self-referential trees, many-to-many links and exclusions.
@Suite struct GraphWalkTests {
    /// The walked objects as (entity, id) pairs, and the clone's old ids, for the same request.
    private func compare(_ fixture: CloneFixture, _ request: CloneRequest) throws {
        var cloneRequest = request
        cloneRequest.returnIDs = true
        let plan = try ClonePlan(request: request, schema: fixture.store.schema)
        let walk = try fixture.store.read { try $0.walkGraph(plan.copy, batchSize: 2) }
        let walked = Set(walk.objects.map { "\(fixture.store.model.entities[$0.entity].name)/\($0.id)" })
        #expect(walked.count == walk.objects.count, "each object once")
        let result = try fixture.engine.clone(cloneRequest)
        let cloned = Set(result.ids!.flatMap { entity, map in map.keys.map { "\(entity)/\($0)" } })
        #expect(walked == cloned)
        // Owners first: every parent appears before its child.
        var seen: Set<String> = []
        for object in walk.objects {
            if let parentEntity = object.parentEntity, let parentID = object.parentID {
                #expect(seen.contains("\(parentEntity)/\(parentID)"))
            }
            seen.insert("\(object.entity)/\(object.id)")
        }
    }

    @Test(arguments: StoreBackendKind.available) func sampleNoteWithItsDiamond(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let sample = try fixture.makeSampleNote(items: 5, tags: try fixture.makeTags(["a", "b"]))
        try compare(fixture, CloneRequest(entity: "Note", id: sample.note))
        try compare(fixture, CloneRequest(entity: "Note", id: sample.note, exclude: ["items", "Memo.tags"]))
        try compare(fixture, CloneRequest(entity: "Item", id: sample.items[0]))
    }

    @Test(arguments: StoreBackendKind.available) func boardsCardsAndATree(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(modelJSON: CloneFixture.boardModel, backend)
        let ids = try fixture.insert([
            ChangeSet.Insert(entity: "Board", attributes: ["title": .string("b")]),
            ChangeSet.Insert(entity: "Column", attributes: ["title": .string("c1")], relationships: ["board": .toOne(.inserted(0))]),
            ChangeSet.Insert(entity: "Column", attributes: ["title": .string("c2")], relationships: ["board": .toOne(.inserted(0))]),
            ChangeSet.Insert(entity: "Label", attributes: ["name": .string("l")], relationships: ["board": .toOne(.inserted(0))]),
            ChangeSet.Insert(
                entity: "Card", attributes: ["title": .string("a")], relationships: ["column": .toOne(.inserted(1)), "labels": .toMany([.inserted(3)])]),
            ChangeSet.Insert(
                entity: "Card", attributes: ["title": .string("b")], relationships: ["column": .toOne(.inserted(2)), "next": .toOne(.inserted(4))]),
            ChangeSet.Insert(
                entity: "Card", attributes: ["title": .string("c")], relationships: ["column": .toOne(.inserted(1)), "next": .toOne(.inserted(5))]),
        ])
        try compare(fixture, CloneRequest(entity: "Board", id: ids[0]))
        try compare(fixture, CloneRequest(entity: "Column", id: ids[1]))
        try compare(fixture, CloneRequest(entity: "Card", id: ids[6]))
        var folders = [ChangeSet.Insert(entity: "Folder", attributes: ["name": .string("root")])]
        for index in 1..<15 {
            folders.append(
                ChangeSet.Insert(entity: "Folder", attributes: ["name": .string("f\(index)")], relationships: ["parent": .toOne(.inserted((index - 1) / 2))]))
        }
        let tree = try fixture.insert(folders)
        try compare(fixture, CloneRequest(entity: "Folder", id: tree[0]))
        try compare(fixture, CloneRequest(entity: "Folder", id: tree[2]))
    }
}

/// Lines come out whole and numbered however the chunks cut them.
@Suite struct GraphLineReaderTests {
    @Test func linesSurviveEveryChunking() throws {
        let text = "{\"a\":1}\r\n\n{\"b\":\"é\"}\n{\"c\":3}"
        let bytes = Array(text.utf8)
        for size in 1...bytes.count {
            var reader = GraphLineReader()
            var lines: [(Int, String)] = []
            var start = 0
            while start < bytes.count {
                try reader.feed(Array(bytes[start..<min(bytes.count, start + size)])) { lines.append(($0, String(decoding: $1, as: UTF8.self))) }
                start += size
            }
            try reader.finish { lines.append(($0, String(decoding: $1, as: UTF8.self))) }
            #expect(lines.map(\.0) == [1, 3, 4], "chunks of \(size)")
            #expect(lines.map(\.1) == ["{\"a\":1}", "{\"b\":\"é\"}", "{\"c\":3}"], "chunks of \(size)")
        }
    }

    /// What an import holds is the unfinished line's length, however its chunks grew the buffer:
    /// a 3000-byte line must count 3000 whether it came whole or as 2100 and 900 bytes.
    @Test func theHeldBytesAreTheUnfinishedLinesLengthHoweverItWasCut() throws {
        for cut in [[3000], [2100, 900], [1, 2999], [1000, 1000, 1000]] {
            var reader = GraphLineReader()
            for size in cut { try reader.feed(Array(repeating: UInt8(ascii: "x"), count: size)) { _, _ in } }
            #expect(reader.heldBytes == 3000, "chunks of \(cut)")
        }
        var reader = GraphLineReader()
        try reader.feed(Array("{}\n{\"a\"".utf8)) { _, _ in }
        #expect(reader.heldBytes == 4)
        try reader.feed(Array(":1}\n".utf8)) { _, _ in }
        #expect(reader.heldBytes == 0)
    }
}
