import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
@testable import ClonerStore
import ClonerTestSupport
import ClonerTravel
import Foundation
import Testing

/// A record read takes a small binary value with its row and reads a larger one afterwards: the
/// values must be the stored ones whatever the chunks look like — in chunks shorter than the
/// service writes (an import may write them so), an empty value without a chunk row (a moved
/// store), an entity whose name a subquery's alias could shadow (real stores, every backend).
@Suite struct BinaryValueReadTests {
    static func bytes(_ count: Int, seed: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9 &+ seed) })
    }

    /// A note holding `value` as its binary attribute; its `_id`.
    static func note(with value: Data, in fixture: CloneFixture) throws -> Int64 {
        try fixture.insert([
            ChangeSet.Insert(entity: "Note", attributes: ["id": .uuid(UUID()), "createDate": .date(millisecondsSince1970: 0), "data": .binary(value)])
        ])[0]
    }

    /// Every read path's value of `attribute` of `entity` `id`: a fetch, a record read with and
    /// without a budget, and the export's line.
    static func reads(_ fixture: CloneFixture, _ entity: String, _ id: Int64, _ attribute: String = "data") throws -> [AttributeValue?] {
        let description = try #require(fixture.store.model.entity(named: entity))
        let index = try #require(description.attributes.firstIndex { $0.name == attribute })
        return try fixture.store.read { context in
            let records = try context.fetchRecords(entity: entity, ids: [id], inlineBinaryBytes: 1 << 30)
            return [
                try context.fetchObject(entity: entity, id: id)?.attributes[attribute],
                records.count == 1 ? records.value(record: 0, attribute: index) : nil,
            ]
        }
    }

    @Test(arguments: StoreBackendKind.available) func aValueInShortChunksIsReadWhole(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        // Over the 16 KiB a row reads with it, and stored as two chunks of which the first is
        // under 16 KiB: the first chunk alone is not the value.
        let value = Self.bytes(20_000, seed: 1)
        let note = try Self.note(with: value, in: fixture)
        let key = fixture.bytesLiteral(BlobDigest.sha256(value))
        let substring = backend == .sqlite ? "substr" : "substring"
        try fixture.sql(
            "INSERT INTO \"_cloner_blob_chunks\" (\"hash\", \"n\", \"bytes\") SELECT \"hash\", 1, \(substring)(\"bytes\", 8193) FROM \"_cloner_blob_chunks\" WHERE \"hash\" = \(key) AND \"n\" = 0"
        )
        try fixture.sql("UPDATE \"_cloner_blob_chunks\" SET \"bytes\" = \(substring)(\"bytes\", 1, 8192) WHERE \"hash\" = \(key) AND \"n\" = 0")
        #expect(try Self.reads(fixture, "Note", note) == [.binary(value), .binary(value)])
        let page = try fixture.store.read { try $0.fetchRecordPage(FetchRequest(entity: "Note"), pageSize: 10) }
        #expect(page.records.object(at: 0).attributes["data"] == .binary(value))
    }

    @Test(arguments: StoreBackendKind.available) func anEmptyValueWithoutAChunkReadsEmpty(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let note = try Self.note(with: Data(), in: fixture)
        try fixture.sql("DELETE FROM \"_cloner_blob_chunks\" WHERE \"hash\" = \(fixture.bytesLiteral(BlobDigest.sha256(Data())))")
        #expect(try Self.reads(fixture, "Note", note) == [.binary(Data()), .binary(Data())])
        let plan = try ClonePlan(request: CloneRequest(entity: "Note", id: note), schema: fixture.store.schema)
        var document: [UInt8] = []
        _ = try fixture.store.read { try GraphExporter(plan: plan).run(in: $0) { document += $0 } }
        #expect(String(decoding: document, as: UTF8.self).contains(#""data":"""#))
    }

    /// An update compares a large binary value by its size and key, without reading it: the same
    /// bytes are no change (the version stays), other bytes of the same size are one.
    @Test(arguments: StoreBackendKind.available) func anUpdateComparesALargeValueByItsKey(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let value = Self.bytes(40_000, seed: 4)
        let note = try Self.note(with: value, in: fixture)
        let version = { try fixture.object("Note", note).version }
        let first = try version()
        _ = try fixture.store.write { try $0.save(ChangeSet(updates: [.init(entity: "Note", id: note, attributes: ["data": .binary(value)])])) }
        #expect(try version() == first, "the same bytes changed the version")
        var other = value
        other[17] ^= 0xFF
        _ = try fixture.store.write { try $0.save(ChangeSet(updates: [.init(entity: "Note", id: note, attributes: ["data": .binary(other)])])) }
        #expect(try version() == first + 1)
        #expect(try fixture.object("Note", note).attributes["data"] == .binary(other))
    }

    /// The read's subqueries name the blob tables by aliases; entities named as the short ones
    /// would be (`b`, `c`: SQLite compares names without case) must not be shadowed by them.
    @Test(arguments: StoreBackendKind.available) func entitiesNamedLikeShortAliasesRead(_ backend: StoreBackendKind) throws {
        let model = """
            { "entities": [
              { "name": "b", "attributes": [ { "name": "data", "type": "binary", "optional": true } ] },
              { "name": "C", "attributes": [ { "name": "data", "type": "binary", "optional": true } ] }
            ] }
            """
        let fixture = try CloneFixture(modelJSON: model, backend)
        let small = Self.bytes(10, seed: 2), large = Self.bytes(40_000, seed: 3)
        let ids = try fixture.insert([
            ChangeSet.Insert(entity: "b", attributes: ["data": .binary(small)]), ChangeSet.Insert(entity: "C", attributes: ["data": .binary(large)]),
        ])
        #expect(try Self.reads(fixture, "b", ids[0]) == [.binary(small), .binary(small)])
        #expect(try Self.reads(fixture, "C", ids[1]) == [.binary(large), .binary(large)])
    }
}
