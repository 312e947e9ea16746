import ClonerServiceTestSupport
import Foundation
import Testing

/// `PATCH` and the record's identity and version (docs/architecture.md#records): a body naming another `_id` or
/// `_version` is a 422 naming the field; a `PATCH` that changes nothing leaves `_version` alone.
@Suite("Service: PATCH identity and versions")
struct PatchServiceTests {
    typealias F = EndToEndFixture

    @Test("_id or _version in a PATCH body that differ from the record are 422 naming them; equal ones are fine")
    func identityInBody() async throws {
        try await TestService.withService { service in
            let client = service.client
            let note = try await client.create("notes", F.note(#""name":"first""#))
            let other = try await client.create("notes", F.note(#""name":"other""#))
            let id = try #require(F.int(note["_id"]))
            let otherID = try #require(F.int(other["_id"]))

            for (body, field) in [
                (#"{"_id":\#(otherID),"name":"x"}"#, "_id"), (#"{"_version":7,"name":"x"}"#, "_version"),
                (#"{"_id":"\#(id)"}"#, "_id"), (#"{"_version":null}"#, "_version"), (#"{"_id":1.5}"#, "_id"),
            ] {
                let answer = try await client.patch("/notes/\(id)", body)
                #expect(answer.status == 422, "\(body) → \(answer.text)")
                #expect(F.errorFields(try answer.json()) == [field], "\(body) → \(answer.text)")
            }
            let unchanged = try await client.get("/notes/\(id)").json()
            #expect(unchanged["name"] as? String == "first", "nothing written")
            #expect(F.int(unchanged["_version"]) == 1)

            let same = try await client.patch("/notes/\(id)", #"{"_id":\#(id),"_version":1,"_entity":"Note","name":"second"}"#)
            #expect(same.status == 200, "\(same.text)")
            #expect(try same.json()["name"] as? String == "second")
            #expect(F.int(try same.json()["_version"]) == 2)
            // The version is checked against the row, not the first answer: 1 is stale now.
            let stale = try await client.patch("/notes/\(id)", #"{"_version":1,"name":"third"}"#)
            #expect(stale.status == 422, "\(stale.text)")
            #expect(F.errorFields(try stale.json()) == ["_version"])
        }
    }

    @Test("a PATCH that changes nothing answers 200 with the record and keeps _version; a real change bumps it once")
    func noOpKeepsVersion() async throws {
        try await TestService.withService { service in
            let client = service.client
            let note = try await client.create(
                "notes", F.note(#""name":"caf\u00e9","index":3,"data":"AAE=","items":[{"name":"a"},{"name":"b"}],"noteDescription":{"content":"d"}"#))
            let id = try #require(F.int(note["_id"]))
            let items = try #require(F.ints(note["items"]))
            let description = try #require(F.int(note["noteDescription"]))

            // The record as read, sent back whole: nothing changes.
            let read = try await client.get("/notes/\(id)")
            for body in [
                read.text, "{}", #"{"name":"caf\u00e9"}"#, #"{"index":3.0}"#, #"{"items":[\#(items[0]),\#(items[1])]}"#,
                #"{"noteDescription":\#(description),"template":null,"isPinned":false}"#,
                #"{"settings":{"theme":"system","fontSize":14}}"#, #"{"data":"AAE="}"#,
            ] {
                let answer = try await client.patch("/notes/\(id)", body)
                #expect(answer.status == 200, "\(body.prefix(100)) → \(answer.text)")
                #expect(F.int(try answer.json()["_version"]) == 1, "\(body.prefix(100)) bumped the version")
                #expect(answer.header("ETag") == "\"1\"")
            }
            for item in items { #expect(F.int(try await client.get("/items/\(item)").json()["_version"]) == 1) }

            // A change that Swift's String == would miss (canonical equivalence) is still a change.
            let decomposed = try await client.patch("/notes/\(id)", #"{"name":"cafe\u0301"}"#)
            #expect(F.int(try decomposed.json()["_version"]) == 2)
            #expect((try decomposed.json()["name"] as? String).map { Array($0.utf8) } == Array("cafe\u{301}".utf8))
            // Reordering an ordered list is a change, for the note and for nothing else that stayed put.
            let reordered = try await client.patch("/notes/\(id)", #"{"items":[\#(items[1]),\#(items[0])]}"#)
            #expect(F.int(try reordered.json()["_version"]) == 3)
            #expect(F.ints(try reordered.json()["items"]) == [items[1], items[0]])
            let again = try await client.patch("/notes/\(id)", #"{"items":[\#(items[1]),\#(items[0])],"index":3}"#)
            #expect(F.int(try again.json()["_version"]) == 3)
            // -0.0 and 0.0 are different doubles.
            let data = try await client.create("itemdata", #"{"createDate":"\#(F.date)","value":0.0}"#)
            let dataID = try #require(F.int(data["_id"]))
            #expect(F.int(try await client.patch("/itemdata/\(dataID)", #"{"value":0}"#).json()["_version"]) == 1)
        }
    }
}
