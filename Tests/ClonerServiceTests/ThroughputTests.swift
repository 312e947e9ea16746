import ClonerModel
@testable import ClonerService
import Foundation
import Logging
import Testing

/// Guards against an accidental slowdown of an order of magnitude (a formatter or
/// `JSONSerialization` creeping into a per-record path). Bounds are generous for a loaded
/// 2-core machine in a debug build; the measured rates are printed for the record.
@Suite struct ThroughputTests {
    func measure(_ label: String, count: Int, _ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        let elapsed = clock.measure(body)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = Double(count) / max(seconds, 1e-9)
        print("throughput \(label): \(Int(rate)) per second (\(count) in \(String(format: "%.3f", seconds)) s)")
        return seconds
    }

    @Test func encodesRecordsQuickly() throws {
        let note = try #require(sampleModel.entity(named: "Note"))
        let uuid = UUID()
        let attributes: [AttributeValue] = [.uuid(uuid), .string("Groceries for the week"), .date(millisecondsSince1970: 1_795_292_129_123),
                                            .integer(7), .null, .double(2.5), .boolean(true), .json("{\"k\":1}")]
        let relationships: [RelationshipIDs] = [.toMany(Array(1...10)), .toMany([3, 4])]
        var writer = JSONWriter(capacity: 1 << 20)
        let count = 50_000
        let seconds = measure("record encode", count: count) {
            writer.beginArray()
            for id in 1...Int64(count) {
                RecordJSONCoding.writeRecord(entity: note, id: id, version: 1, attributes: attributes, relationships: relationships, to: &writer)
            }
            writer.endArray()
        }
        #expect(seconds < 30)
        #expect(try JSONParser.parse(writer.bytes) != .null)
    }

    @Test func decodesRecordInputsQuickly() throws {
        let note = try #require(sampleModel.entity(named: "Note"))
        let body = Array(#"{"id": "0f8fad5b-d9cb-469f-a165-70867728950e", "createDate": "2026-11-21T20:15:29.123Z", "name": "Groceries", "index": 3, "extra": {"a": [1, 2]}, "items": [1, 2, {"name": "x"}]}"#.utf8)
        let count = 20_000
        var failures = 0
        let seconds = measure("record input decode", count: count) {
            for _ in 0..<count {
                if (try? RecordInput.decode(body, entity: note, model: sampleModel, mode: .create)) == nil { failures += 1 }
            }
        }
        #expect(failures == 0)
        #expect(seconds < 30)
    }

    @Test func formatsLogLinesQuickly() {
        let count = 100_000
        var total = 0
        let seconds = measure("access log line", count: count) {
            for index in 0..<count {
                let record = AccessLogRecord(method: "GET", path: "/notes/42", status: 200, durationMilliseconds: Double(index) / 7,
                                             bytes: 512, requestID: "0123456789abcdef0123456789abcdef", remote: "127.0.0.1:40000")
                total += record.jsonLine(timestampMilliseconds: 1_795_292_129_123 + Int64(index)).count
            }
        }
        #expect(total > count * 150)
        #expect(seconds < 30)
    }

    @Test func authorizesQuickly() {
        let auth = APIKeyAuthenticator(fullAccessKeys: ["key-one", "key-two"], readOnlyKeys: ["key-three"])
        let count = 100_000
        var allowed = 0
        let seconds = measure("bearer authorization", count: count) {
            for _ in 0..<count where auth.authorize(authorization: "Bearer key-two", isWrite: true) == .allowed(.full) { allowed += 1 }
        }
        #expect(allowed == count)
        #expect(seconds < 30)
    }
}
