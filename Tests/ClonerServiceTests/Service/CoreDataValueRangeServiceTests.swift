import ClonerService
import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// A Core Data model as Xcode saves it (Tests/Fixtures/CoreData/Counters.xcdatamodeld): defaults
/// Xcode leaves behind, Integer 16 and 32 bounds on every path that writes a value, and collections
/// named in English or by the entity's user info.
@Suite("Service: a Core Data model's integer widths, defaults and collections")
struct CoreDataValueRangeServiceTests {
    typealias F = EndToEndFixture

    static let bundle = repositoryRoot.appendingPathComponent("Tests/Fixtures/CoreData/Counters.xcdatamodeld")

    /// The 422's first error, as field and message.
    static func refusal(_ answer: ClientResponse) throws -> (field: String?, message: String?) {
        let errors = try #require(try answer.json()["errors"] as? [[String: String]], "\(answer.text)")
        return (errors.first?["field"], errors.first?["message"])
    }

    @Test(
        "defaults as Xcode saves them; a value outside Integer 16 or 32 is a 422 on create, PATCH, clone set and import", arguments: StoreBackendKind.available)
    func integerWidths(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, overrides: .init(modelPath: Self.bundle.path)) { service in
            let client = service.client
            let box = try await client.create("boxes", #"{"label": "first", "entries": [{"count": 3}]}"#)
            let boxID = try #require(F.int(box["_id"]))
            #expect(F.int(box["count"]) == 0 && box["sealed"] as? Bool == false && F.int(box["total"]) == 1, "\(box)")
            let entry = try await client.get("/entries/\(try #require(F.ints(box["entries"])?.first))").json()
            #expect(F.int(entry["count"]) == 3)

            var answer = try await client.post("/boxes", #"{"count": 100000}"#)
            #expect(answer.status == 422, "\(answer.text)")
            #expect(try Self.refusal(answer) == ("count", "100000 is outside Integer 16's range -32768…32767"))
            answer = try await client.post("/boxes", #"{"entries": [{"count": -40000}]}"#)
            #expect(answer.status == 422, "\(answer.text)")
            #expect(try Self.refusal(answer) == ("entries[0].count", "-40000 is outside Integer 16's range -32768…32767"))
            answer = try await client.patch("/boxes/\(boxID)", #"{"total": 2147483648}"#)
            #expect(answer.status == 422, "\(answer.text)")
            #expect(try Self.refusal(answer) == ("total", "2147483648 is outside Integer 32's range -2147483648…2147483647"))
            answer = try await client.patch("/boxes/\(boxID)", #"{"count": 32767, "total": -2147483648}"#)
            #expect(answer.status == 200, "the bounds themselves fit: \(answer.text)")
            answer = try await client.post("/boxes/\(boxID)/clone", #"{"set": {"count": 32768}}"#)
            #expect(answer.status == 422, "\(answer.text)")
            #expect(try Self.refusal(answer).message == "32768 is outside Integer 16's range -32768…32767")

            let document = try await client.get("/boxes/\(boxID)/export").text
            let lines = document.split(separator: "\n").map(String.init)
            let boxLine = try #require(lines.firstIndex { $0.contains(#""kind":"object""#) && $0.contains(#""entity":"Box""#) })
            var broken = lines
            broken[boxLine] = broken[boxLine].replacingOccurrences(of: #""count":32767"#, with: #""count":99999"#)
            #expect(broken != lines)
            answer = try await client.request(
                "POST", "/boxes/import", headers: [("Content-Type", "application/vnd.cloner.graph+x-ndjson")], body: broken.joined(separator: "\n"))
            #expect(answer.status == 422, "\(answer.text)")
            #expect(try answer.json()["field"] as? String == "line \(boxLine + 1).attributes.count", "\(answer.text)")
            #expect(answer.text.contains("99999 is outside Integer 16's range"), "\(answer.text)")
            #expect(try await service.count("Box") == 1, "nothing written")
        }
    }

    @Test("collections: English plurals, or the entity's collection user info entry")
    func collections() async throws {
        try await TestService.withService(overrides: .init(modelPath: Self.bundle.path)) { service in
            let client = service.client
            let settings = try await client.post("/settings", #"{"theme": "dark"}"#)
            #expect(settings.status == 201, "\(settings.text)")
            let state = try await client.post("/states", #"{"name": "open"}"#)
            #expect(state.status == 201, "the user info's collection: \(state.text)")
            let misspelt = try await client.get("/statuss")
            #expect(misspelt.status == 404)
            let entries = try await client.get("/entries")
            #expect(entries.status == 200, "\(entries.text)")
        }
    }
}
