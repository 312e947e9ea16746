import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import ClonerTravel
import Foundation
import Testing

/// The export reads records into flat buffers (`readGraphRecords`) and destination lists by
/// position (`readDestinations`) rather than through `fetchObjects` and `destinationIDs`: they
/// must read the very values and lists those do, whatever the order of the `_id`s asked for and
/// with buffers reused from one batch to the next (real stores, every backend available).
@Suite struct GraphRecordReadTests {
    /// A value read into a batch, as the `AttributeValue` a fetch gives for it; a value left in
    /// the store for the export to stream, read from there whole.
    static func attributeValue(
        _ batch: GraphRecordBatch, _ position: Int, _ index: Int, _ type: AttributeType, context: any StoreContext
    ) throws -> AttributeValue {
        switch batch.value(of: position, attribute: index) {
        case .null: return .null
        case .integer(let number):
            switch type {
            case .date: return .date(millisecondsSince1970: number)
            case .boolean: return .boolean(number != 0)
            default: return .integer(number)
            }
        case .double(let number): return .double(number)
        case .bytes(let range):
            return batch.withBytes(range) { raw in
                switch type {
                case .binary: return .binary(Data(raw))
                case .json: return .json(String(decoding: raw, as: UTF8.self))
                default: return .string(String(decoding: raw, as: UTF8.self))
                }
            }
        case .uuid(let uuid): return .uuid(uuid)
        case .other(let value): return value
        case .blob(let blob):
            #expect(type == .binary && blob.size > GraphRecordBatch.streamedBinaryBytes)
            var bytes = Data()
            #expect(try context.readBlob(hash: blob.hash, range: 0..<blob.size) { bytes.append($0) })
            return .binary(bytes)
        }
    }

    /// Reads `ids` of `entity` into `batch` and expects what `fetchObjects` reads for them.
    static func expectSameAsFetch(_ context: any StoreContext, _ entity: String, _ ids: [Int64], into batch: GraphRecordBatch) throws {
        let description = try #require(context.schema.model.entity(named: entity))
        try context.readGraphRecords(entity: entity, ids: ids, into: batch)
        #expect(batch.ids == ids)
        let fetched = Dictionary(uniqueKeysWithValues: try context.fetchObjects(entity: entity, ids: ids).map { ($0.id, $0) })
        var binaryBytes = 0
        for (position, id) in ids.enumerated() {
            guard let object = fetched[id] else {
                #expect(!batch.isFound(position), "\(entity) \(id) is missing")
                continue
            }
            #expect(batch.isFound(position), "\(entity) \(id)")
            for (index, attribute) in description.attributes.enumerated() {
                let value = try attributeValue(batch, position, index, attribute.type, context: context)
                #expect(value == object.attributes[attribute.name], "\(entity) \(id) \(attribute.name)")
                if case .binary(let data) = value, data.count <= GraphRecordBatch.streamedBinaryBytes { binaryBytes += data.count }
            }
            for (index, relationship) in description.relationships.enumerated() {
                let list = Array(batch.destinations(of: position, relationship: index))
                switch object.relationships[relationship.name] {
                case .toOne(let destination): #expect(list == (destination.map { [$0] } ?? []), "\(entity) \(id) \(relationship.name)")
                case .toMany(let destinations): #expect(list == destinations, "\(entity) \(id) \(relationship.name)")
                case nil: Issue.record("\(entity) \(id): no \(relationship.name)")
                }
            }
        }
        #expect(batch.binaryBytes == binaryBytes, "\(entity): binary bytes")
    }

    @Test(arguments: StoreBackendKind.available) func valuesOfEveryTypeReadAsAFetchReadsThem(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(modelJSON: GraphImportLineFormsTests.model, backend)
        // A blob of three chunks (left in the store, for the export to stream), an empty one,
        // text that needs escapes or is not ASCII.
        let large = Data((0..<(2 * StoreSchema.blobChunkSize + 3)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) })
        var inserts = [ChangeSet.Insert(entity: "Box", attributes: ["name": .string("box")])]
        let things: [[String: AttributeValue]] = [
            [
                "s": .string("quote \" and \\ and \n, é, 日本"), "i": .integer(-42), "d": .double(2.5), "b": .boolean(true),
                "t": .date(millisecondsSince1970: 1_600_000_000_123), "u": .uuid(UUID()), "bin": .binary(large), "j": .json(#"{"a":[1,"é"]}"#),
            ],
            ["s": .string(""), "i": .integer(Int64.min), "b": .boolean(false), "bin": .binary(Data()), "j": .json("null")],
            [:],
            ["s": .string("plain"), "bin": .binary(Data([0, 255, 7])), "i": .integer(Int64.max)],
        ]
        for attributes in things {
            inserts.append(ChangeSet.Insert(entity: "Thing", attributes: attributes, relationships: ["box": .toOne(.inserted(0))]))
        }
        let ids = try fixture.insert(inserts)
        let thingIDs = Array(ids.dropFirst())
        let missing = (ids.max() ?? 0) + 100
        try fixture.store.read { context in
            let batch = GraphRecordBatch()
            try Self.expectSameAsFetch(context, "Thing", [thingIDs[2], missing, thingIDs[0], thingIDs[3], thingIDs[1]], into: batch)
            #expect(batch.binaryBytes == 3)
            guard case .blob(let blob) = batch.value(of: 2, attribute: 6) else {
                Issue.record("the large value was read into the batch: \(batch.value(of: 2, attribute: 6))")
                return
            }
            #expect(blob.size == Int64(large.count))
            // The same buffers, a smaller batch: nothing of the one before shows through.
            try Self.expectSameAsFetch(context, "Thing", [thingIDs[3], thingIDs[1]], into: batch)
            try Self.expectSameAsFetch(context, "Box", [ids[0]], into: batch)
            try Self.expectSameAsFetch(context, "Thing", [], into: batch)
        }
    }

    @Test(arguments: StoreBackendKind.available) func relationshipsReadAsAFetchReadsThem(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let tags = try fixture.makeTags(["a", "b", "c"])
        let sample = try fixture.makeSampleNote(items: 6, tags: [tags[2], tags[0]])
        let other = try fixture.makeSampleNote(name: "Other", items: 2, tags: [tags[1]])
        let attachments = try fixture.insert(
            (0..<5).map { index in
                ChangeSet.Insert(
                    entity: "Attachment", attributes: ["image": .binary(Data([UInt8(index), 1, 2, 3, 4]))],
                    relationships: ["memo": .toOne(.existing(sample.memos[index % 2]))])
            })
        try fixture.store.read { context in
            let batch = GraphRecordBatch()
            let lists: [(String, [Int64])] = [
                ("Note", [other.note, sample.note]), ("Item", sample.items.reversed() + other.items), ("ItemData", sample.itemDatas.reversed()),
                ("Memo", sample.memos.reversed() + other.memos), ("Tag", [tags[1], tags[2], tags[0]]), ("Attachment", attachments.reversed()),
                ("NoteDescription", [sample.description, other.description]),
            ]
            for (entity, ids) in lists {
                try Self.expectSameAsFetch(context, entity, ids, into: batch)
                let description = try #require(context.schema.model.entity(named: entity))
                var destinations = GraphDestinations()
                for relationship in description.relationships {
                    let sources = ids + [(ids.max() ?? 0) + 1_000]
                    try context.readDestinations(of: relationship, for: sources, into: &destinations)
                    let expected = try context.destinationIDs(of: relationship, for: sources)
                    for (position, source) in sources.enumerated() {
                        #expect(Array(destinations.destinations(of: position)) == expected[source] ?? [], "\(relationship.qualifiedName) of \(source)")
                    }
                }
            }
        }
    }

    @Test func idSetAnswersAsASetDoes() {
        var generator = SystemRandomNumberGenerator()
        var set = GraphIDSet()
        var reference: Set<Int64> = []
        let edges: [Int64] = [.min, .max, 0, -1, 1, .min + 1]
        let values = edges + (0..<5_000).map { _ in Int64.random(in: -3_000...3_000, using: &generator) } + (0..<2_000).map { $0 * 4_096 }
        for value in values {
            #expect(set.insert(value) == reference.insert(value).inserted, "\(value)")
        }
        #expect(set.count == reference.count)
        for value in Int64(-3_100)...3_100 { #expect(set.contains(value) == reference.contains(value), "\(value)") }
        for value in edges + [4_096 * 1_999, 4_096 * 2_000, .min + 2] { #expect(set.contains(value) == reference.contains(value), "\(value)") }
    }
}
