import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// Binary values in record answers are bounded (`maxInlineBinaryBytes`): carried inline as base64
/// in record order while they fit, the rest `null` with `_blobs` naming their size and route.
@Suite("Service: binary values past an answer's inline bytes")
struct InlineBinaryServiceTests {
    typealias F = EndToEndFixture

    static func bytes(_ count: Int, seed: Int) -> [UInt8] { BlobResourceServiceTests.bytes(count, seed: seed) }

    static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    /// The `_blobs` entry of `attribute` in a record, as (size, href).
    static func stored(_ record: [String: Any], _ attribute: String = "data") -> (size: Int?, href: String?)? {
        guard let entry = (record["_blobs"] as? [String: Any])?[attribute] as? [String: Any] else { return nil }
        return (F.int(entry["size"]), entry["href"] as? String)
    }

    @Test(
        "records, pages and write answers carry binary values while they fit; the rest by route, unchanged by a PATCH",
        arguments: StoreBackendKind.available)
    func valuesPastTheBudgetGoByRoute(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, environment: ["CLONER_MAX_INLINE_BINARY_BYTES": "100"]) { service in
            let client = service.client
            let small = Self.bytes(60, seed: 1), middle = Self.bytes(80, seed: 2), large = Self.bytes(20_000, seed: 3)

            // A create's answer: within the budget inline, past it by route.
            let a = try await client.create("notes", F.note(#""name":"a","data":"\#(Self.base64(small))""#))
            #expect(a["data"] as? String == Self.base64(small))
            #expect(a["_blobs"] == nil)
            let b = try await client.create("notes", F.note(#""name":"b","data":"\#(Self.base64(middle))""#))
            let c = try await client.create("notes", F.note(#""name":"c","data":"\#(Self.base64(large))""#))
            let cID = try #require(F.int(c["_id"]))
            #expect(c["data"] is NSNull)
            #expect(Self.stored(c)?.size == 20_000 && Self.stored(c)?.href == "/notes/\(cID)/data")
            // The same bytes as `a` on another record, and a record with no value.
            let d = try await client.create("notes", F.note(#""name":"d","data":"\#(Self.base64(small))""#))
            let e = try await client.create("notes", F.note(#""name":"e""#))
            let ids = try [a, b, c, d, e].map { try #require(F.int($0["_id"])) }

            // One record: its own budget.
            let readB = try await client.get("/notes/\(ids[1])").json()
            #expect(readB["data"] as? String == Self.base64(middle) && readB["_blobs"] == nil)
            let readC = try await client.get("/notes/\(cID)").json()
            #expect(readC["data"] is NSNull && Self.stored(readC)?.size == 20_000)
            let href = try #require(Self.stored(readC)?.href)
            #expect(try await client.get(href).body == large)

            // A page: the budget counts in record order. a (60) fits; b (80) no longer does, nor
            // c (larger than a row reads with it: not read at all); d, the same bytes as a, counts
            // again (40 left, 60 wanted); e has none.
            let page = try await client.get("/notes?order=_id").json()
            let records = try #require(page["data"] as? [[String: Any]])
            #expect(records.compactMap { F.int($0["_id"]) } == ids)
            #expect(records[0]["data"] as? String == Self.base64(small) && records[0]["_blobs"] == nil)
            #expect(records[1]["data"] is NSNull && Self.stored(records[1])?.size == 80)
            #expect(records[2]["data"] is NSNull && Self.stored(records[2])?.size == 20_000)
            #expect(records[3]["data"] is NSNull && Self.stored(records[3])?.href == "/notes/\(ids[3])/data")
            #expect(records[4]["data"] is NSNull && records[4]["_blobs"] == nil)
            // A page of one record that fits is inline again.
            let second = try await client.get("/notes?order=_id&after=\(ids[0])&limit=1").json()
            #expect((second["data"] as? [[String: Any]])?.first?["data"] as? String == Self.base64(middle))

            // Sending a cut record back is refused (`_blobs` is no field), and writes nothing.
            let echoed = try await client.get("/notes/\(cID)")
            let refused = try await client.patch("/notes/\(cID)", echoed.text)
            #expect(refused.status == 422, "\(refused.text)")
            #expect(refused.text.contains("_blobs"), "\(refused.text)")
            // A PATCH of another member answers the record as a read does, the value kept.
            let renamed = try await client.patch("/notes/\(cID)", #"{"name":"c2"}"#)
            #expect(renamed.status == 200, "\(renamed.text)")
            let answer = try renamed.json()
            #expect(answer["name"] as? String == "c2" && answer["data"] is NSNull && Self.stored(answer)?.size == 20_000)
            #expect(try await client.get(href).body == large)
        }
    }

    @Test("a budget of 0 names every non-empty value by its route; an empty value is still inline", arguments: StoreBackendKind.available)
    func zeroBudget(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, environment: ["CLONER_MAX_INLINE_BINARY_BYTES": "0"]) { service in
            let client = service.client
            let one = try await client.create("notes", F.note(#""data":"\#(Self.base64([7]))""#))
            #expect(one["data"] is NSNull && Self.stored(one)?.size == 1)
            let empty = try await client.create("notes", F.note(#""data":"""#))
            #expect(empty["data"] as? String == "" && empty["_blobs"] == nil)
            let id = try #require(F.int(one["_id"]))
            #expect(try await client.get("/notes/\(id)/data").body == [7])
        }
    }

    @Test("the default budget carries a value of a few megabytes inline, whole", arguments: StoreBackendKind.available)
    func defaultBudgetCarriesMegabytes(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            // Three chunks and a bit: read from every chunk, in order.
            let value = Self.bytes(3 << 20 + 5, seed: 4)
            let note = try await client.create("notes", F.note(#""data":"\#(Self.base64(value))""#))
            let id = try #require(F.int(note["_id"]))
            let read = try await client.get("/notes/\(id)").json()
            #expect(read["data"] as? String == Self.base64(value) && read["_blobs"] == nil)
        }
    }
}
