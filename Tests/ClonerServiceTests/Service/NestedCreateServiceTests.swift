@testable import ClonerService
import ClonerServiceTestSupport
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// A nested create of tens of thousands of objects (docs/architecture.md#routes: one transaction)
/// must be linear — it holds the only writer while it runs — so its statements per object must
/// not grow with its size: on SQLite one run of a prepared insert per object and nothing more, on
/// PostgreSQL a few batched commands for the whole graph.
@Suite("Service: large nested creates")
struct NestedCreateServiceTests {
    typealias F = EndToEndFixture

    @Test(
        "a body holding more objects than maxObjectsPerRequest is a 413 naming the widest member, before any work",
        arguments: StoreBackendKind.available)
    func wideBodiesAreRefused(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, environment: ["CLONER_MAX_OBJECTS_PER_REQUEST": "10"]) { service in
            let client = service.client
            func items(_ count: Int) -> String { Array(repeating: "{}", count: count).joined(separator: ",") }
            let fits = try await client.post("/notes", F.note(#""items":[\#(items(9))],"noteDescription":{}"#))
            #expect(fits.status == 201, "\(fits.text)")
            let noteID = try #require(F.int(try fits.json()["_id"]))
            let before = try await service.counts(["Note", "Item", "NoteDescription"])
            for (method, path, body) in [
                ("POST", "/notes", F.note(#""items":[\#(items(11))]"#)),
                ("POST", "/notes", F.note(#""items":[\#(items(6))],"memos":[\#(items(5))]"#)),
                ("PATCH", "/notes/\(noteID)", #"{"items":[\#(items(11))]}"#),
            ] {
                let response = try await client.request(method, path, body: body)
                #expect(response.status == 413, "\(method) \(path): \(response.status) \(response.text)")
                let problem = (try? response.json()) ?? [:]
                #expect(problem["code"] as? String == "payload_too_large")
                #expect(problem["field"] as? String == "items", "\(response.text)")
                #expect(response.text.contains("maxObjectsPerRequest"))
            }
            #expect(try await service.counts(["Note", "Item", "NoteDescription"]) == before, "nothing written")
        }
        // The default (100,000) refuses a 6 MB body of two million empty objects at once.
        try await TestService.withService(backend: backend) { service in
            let wide = F.note(#""items":["# + Array(repeating: "{}", count: 2_000_000).joined(separator: ",") + "]")
            let response = try await service.client.post("/notes", wide)
            #expect(response.status == 413, "\(response.status) \(response.text.prefix(300))")
            #expect(try await service.count("Item") == 0)
        }
    }

    @Test(
        "a body of more JSON values than maxValuesPerRequest (an array of numbers in a json attribute, a clone's exclude) is a 413 naming the member, nothing written",
        arguments: StoreBackendKind.available)
    func valueWideBodiesAreRefused(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, environment: ["CLONER_MAX_VALUES_PER_REQUEST": "1000"]) { service in
            let client = service.client
            func numbers(_ count: Int) -> String { (0..<count).map(String.init).joined(separator: ",") }
            let fits = try await client.post("/notes", F.note(#""settings":{"list":[\#(numbers(900))]}"#))
            #expect(fits.status == 201, "\(fits.text)")
            let noteID = try #require(F.int(try fits.json()["_id"]))
            let before = try await service.counts(["Note", "Item"])
            let version = try await client.get("/notes/\(noteID)").header("ETag")
            for (method, path, body, field) in [
                ("POST", "/notes", F.note(#""settings":{"list":[\#(numbers(1000))]}"#), "settings"),
                ("PATCH", "/notes/\(noteID)", #"{"settings":[\#(numbers(1000))]}"#, "settings"),
                ("POST", "/notes/\(noteID)/clone", #"{"exclude":[\#(Array(repeating: #""items""#, count: 1000).joined(separator: ","))]}"#, "exclude"),
            ] {
                let response = try await client.request(method, path, body: body)
                #expect(response.status == 413, "\(method) \(path): \(response.status) \(response.text.prefix(300))")
                let problem = (try? response.json()) ?? [:]
                #expect(problem["code"] as? String == "payload_too_large")
                #expect(problem["field"] as? String == field, "\(response.text)")
                #expect(response.text.contains("maxValuesPerRequest"))
            }
            #expect(try await service.counts(["Note", "Item"]) == before, "nothing written")
            #expect(try await client.get("/notes/\(noteID)").header("ETag") == version, "the PATCH changed nothing")
        }
    }

    /// A note with `count` nested items, every tenth with one ItemData.
    static func nestedNote(items count: Int) -> String {
        var items: [String] = []
        items.reserveCapacity(count)
        for index in 0..<count {
            if index % 10 == 0 {
                items.append("{\"name\":\"item \(index)\",\"itemDatas\":[{\"value\":\(index).5,\"createDate\":\"\(F.date)\"}]}")
            } else {
                items.append("{\"name\":\"item \(index)\"}")
            }
        }
        return F.note("\"name\":\"big\",\"items\":[" + items.joined(separator: ",") + "]")
    }

    @Test(
        "a nested create's statements per object do not grow from 4,000 to 40,000 items: one prepared insert each on SQLite, batches on PostgreSQL",
        arguments: StoreBackendKind.available)
    func statementsPerObjectDoNotGrow(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let application = service.application
            let note = try #require(application.model.entity(named: "Note"))
            // The body as the create route reads it, saved in one transaction as the route saves it,
            // with the backend's own statement counter around the save.
            @Sendable func statements(items: Int) throws -> (statements: Int, objects: Int) {
                let input = try RecordInput.decode(Array(Self.nestedNote(items: items).utf8), entity: note, model: application.model, mode: .create)
                let changes = input.changeSet()
                let counted = try application.store.write { context in
                    switch backend {
                    case .sqlite: try context.sqliteConnection.countingStatements { try context.save(changes) }.statements
                    case .postgreSQL: try context.postgreSQLConnection.countingCommands { try context.save(changes) }.commands
                    }
                }
                return (counted, changes.inserts.count)
            }
            let small = try await Blocking.run { try statements(items: 4_000) }
            let large = try await Blocking.run { try statements(items: 40_000) }
            #expect(large.objects == 10 * small.objects - 9, "one note each, ten times the items and data")
            let perObject = (small: Double(small.statements) / Double(small.objects), large: Double(large.statements) / Double(large.objects))
            #expect(perObject.large <= perObject.small, "statements per object grew with the size: \(small) then \(large)")
            switch backend {
            case .sqlite: #expect(large.statements <= large.objects, "more than one statement per object: \(large)")
            case .postgreSQL: #expect(perObject.large < 0.01, "commands are not batched: \(large)")
            }
            print("nested create on \(backend): \(small.statements) statements for \(small.objects) objects, \(large.statements) for \(large.objects)")
        }
    }

    @Test("a note with 40,000 nested items (each with its ItemData every tenth) is created whole, in order")
    func fortyThousandItems() async throws {
        try await TestService.withService { service in
            let client = service.client
            let count = 40_000
            let body = Self.nestedNote(items: count)
            let started = ContinuousClock.now
            let created = try await client.post("/notes", body)
            let elapsed = ContinuousClock.now - started
            print("nested create of \(count) items (+\(count / 10) ItemData, \(body.utf8.count) bytes): \(elapsed)")
            #expect(created.status == 201, "\(created.text.prefix(300))")
            let note = try created.json()
            let noteID = try #require(F.int(note["_id"]))
            #expect(F.ints(note["items"])?.count == 1000, "a record lists 1000 inline")
            let itemIDs = try await client.linkedIDs(note, "items")
            #expect(Array(itemIDs.prefix(1000)) == F.ints(note["items"]), "the inline ids are the list's first, in order")
            #expect(itemIDs.count == count)
            #expect(Set(itemIDs).count == count)

            #expect(try await service.count("Item", where: "note = \(noteID)") == count)
            #expect(try await service.count("ItemData") == count / 10)
            // Positions 0..<count in body order; the answer lists the items the same way.
            let outOfPlace = try await service.sql("SELECT count(*) FROM Item WHERE note = \(noteID) AND \"_pos_note\" <> CAST(substr(name, 6) AS INTEGER);")
            #expect(outOfPlace == "0")
            let positions = try await service.sql(
                "SELECT min(\"_pos_note\"), max(\"_pos_note\"), count(DISTINCT \"_pos_note\") FROM Item WHERE note = \(noteID);")
            #expect(positions == "0|\(count - 1)|\(count)")
            let first = try await client.get("/items/\(itemIDs[0])").json()
            #expect(first["name"] as? String == "item 0")
            #expect(F.int(first["note"]) == noteID)
            #expect(F.int(first["_version"]) == 1)
            let last = try await client.get("/items/\(itemIDs[count - 1])").json()
            #expect(last["name"] as? String == "item \(count - 1)")
            let data = try #require(F.ints(try await client.get("/items/\(itemIDs[count - 10])").json()["itemDatas"]))
            #expect(data.count == 1)
            let itemData = try await client.get("/itemdata/\(data[0])").json()
            #expect(itemData["value"] as? Double == Double(count - 10) + 0.5)
            #expect(F.int(itemData["item"]) == itemIDs[count - 10])
            #expect(try await service.count("ItemData", where: "item IS NULL") == 0)
            #expect(try await service.sql("SELECT count(*) FROM Note WHERE \"_version\" <> 1;") == "0")

            // The clone of the same graph, for comparison in the log.
            let cloneStarted = ContinuousClock.now
            let clone = try await client.post("/notes/\(noteID)/clone", nil)
            print("clone of the same \(count) items: \(ContinuousClock.now - cloneStarted)")
            #expect(clone.status == 201)
        }
    }
}
