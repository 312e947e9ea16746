import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import ClonerTravel
import Foundation
import Testing

/// The export writes its values straight into bytes: the forms must be Foundation's, and a
/// document must import them back as they were (real stores, every backend available).
@Suite struct GraphExportValueFormsTests {
    static let model = GraphImportLineFormsTests.model

    /// The exporter writes binary values as `base64EncodedString()` and uuids as
    /// `uuidString.lowercased()` would (every length of a last base64 group, bytes of every value),
    /// and a document it writes imports them back as they were. Values over
    /// `GraphRecordBatch.streamedBinaryBytes` are streamed from the store chunk by chunk (1 MiB
    /// chunks, one more than a multiple of 3: every carry between them), in the same text, also
    /// when the pieces handed on end inside them.
    @Test(arguments: StoreBackendKind.available) func exportedValuesTravelAsTheyWere(_ backend: StoreBackendKind) throws {
        let source = try CloneFixture(modelJSON: Self.model, backend)
        let target = try CloneFixture(modelJSON: Self.model, backend)
        var values = (0..<7).map { Data((0..<$0).map { UInt8(truncatingIfNeeded: $0 * 37 + 250) }) }
        values.append(Data((0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 3) }))
        let chunk = StoreSchema.blobChunkSize
        for size in [chunk + 1, chunk + 2, 2 * chunk + 3, 3 * chunk] {
            values.append(Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9 &+ size) }))
        }
        let uuids = values.indices.map { _ in UUID() }
        var inserts = [ChangeSet.Insert(entity: "Box", attributes: ["name": .string("quote \" and \\ and \n, é")])]
        for (value, uuid) in zip(values, uuids) {
            inserts.append(
                ChangeSet.Insert(
                    entity: "Thing", attributes: ["bin": .binary(value), "u": .uuid(uuid), "s": .string("tab\there")],
                    relationships: ["box": .toOne(.inserted(0))]))
        }
        let ids = try source.insert(inserts)
        let plan = try ClonePlan(request: CloneRequest(entity: "Box", id: ids[0]), schema: source.store.schema)
        var document: [UInt8] = []
        var largestPiece = 0
        _ = try source.store.read {
            try GraphExporter(plan: plan).run(in: $0) {
                document += $0
                largestPiece = max(largestPiece, $0.count)
            }
        }
        // A streamed value is handed on as it grows: no piece holds one whole.
        #expect(largestPiece < chunk + chunk / 2, "\(largestPiece) bytes in one piece")
        var small = GraphExporter(plan: plan)
        small.flushBytes = 777
        var pieces: [UInt8] = []
        _ = try source.store.read { try small.run(in: $0) { pieces += $0 } }
        #expect(pieces == document)
        let text = String(decoding: document, as: UTF8.self)
        for (value, uuid) in zip(values, uuids) {
            #expect(text.contains(#""bin":"\#(value.base64EncodedString())""#), "\(value.count) bytes")
            #expect(text.contains(#""u":"\#(uuid.uuidString.lowercased())""#))
        }
        #expect(text.contains(#""name":"quote \" and \\ and \n, é""#), "\(text.prefix(600))")

        let box = target.store.model.entity(named: "Box")!
        var importer = try GraphImporter(schema: target.store.schema, root: box, options: GraphImportOptions(returnIDs: true))
        try importer.feed(document)
        try importer.finish()
        let outcome = try target.store.write { try importer.run(in: $0, now: Date()) }
        let newIDs = try #require(outcome.result.ids?["Thing"])
        #expect(try target.object("Box", try #require(outcome.result.ids?["Box"]?[ids[0]])).attributes["name"] == .string("quote \" and \\ and \n, é"))
        for (index, (value, uuid)) in zip(values, uuids).enumerated() {
            let object = try target.object("Thing", try #require(newIDs[ids[index + 1]])).attributes
            #expect(object["bin"] == .binary(value))
            #expect(object["u"] == .uuid(uuid))
            #expect(object["s"] == .string("tab\there"))
        }
    }
    /// Each store reads values into the export's batch its own way (SQLite copies common kinds
    /// straight from its buffers, PostgreSQL converts each value): the same objects give the same
    /// document byte for byte on every store, in the forms a fetch's values are written in — non-ASCII and empty text,
    /// integer extremes, a date before 1970 with its milliseconds, booleans, json as stored.
    @Test func everyKindOfValueExportsAlikeOnEveryStore() throws {
        let date = Date(timeIntervalSince1970: -86_400.125)
        let things: [[String: AttributeValue]] = [
            [
                "s": .string("é ñ 日本 🙂 \u{1}"), "i": .integer(.min), "d": .double(-0.5), "b": .boolean(true), "t": .date(date),
                "u": .uuid(UUID(uuidString: "0E4A2C5B-1D2F-4A6B-9C8D-7E6F5A4B3C2D")!), "j": .json(#"{"a":[1,2.5,"x"],"b":null}"#),
            ],
            ["s": .string(""), "i": .integer(.max), "d": .double(1e300), "b": .boolean(false), "t": .date(Date(timeIntervalSince1970: 1_700_000_000.999))],
            ["s": .string("plain ascii"), "i": .integer(0)],
        ]
        var documents: [StoreBackendKind: String] = [:]
        for backend in StoreBackendKind.available {
            let fixture = try CloneFixture(modelJSON: Self.model, backend)
            let ids = try fixture.insert(
                [ChangeSet.Insert(entity: "Box", attributes: ["name": .string("box")])]
                    + things.map { ChangeSet.Insert(entity: "Thing", attributes: $0, relationships: ["box": .toOne(.inserted(0))]) })
            let plan = try ClonePlan(request: CloneRequest(entity: "Box", id: ids[0]), schema: fixture.store.schema)
            var document: [UInt8] = []
            _ = try fixture.store.read { try GraphExporter(plan: plan).run(in: $0) { document += $0 } }
            let text = String(decoding: document, as: UTF8.self)
            for value in ["é ñ 日本 🙂 \\u0001", #""i":-9223372036854775808"#, #""i":9223372036854775807"#, #""b":true"#, #""b":false"#, #""s":"""#] {
                #expect(text.contains(value), "\(backend): \(value) in \(text)")
            }
            #expect(text.contains(#""u":"0e4a2c5b-1d2f-4a6b-9c8d-7e6f5a4b3c2d""#), "\(backend)")
            #expect(text.contains(#"{"a":[1,2.5,"x"],"b":null}"#), "\(backend): \(text)")
            documents[backend] = text
        }
        for (backend, text) in documents {
            #expect(text == documents[.sqlite], "\(backend) against SQLite")
        }
    }
}
