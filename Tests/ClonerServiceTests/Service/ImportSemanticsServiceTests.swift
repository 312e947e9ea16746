import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// An import means what a clone means: it copies what a relationship owns and never takes an
/// existing object from its owner, leaves out what `exclude` names together with everything owned only through it, and
/// brings no text or json value larger than a create could write. Both stores, through the server.
@Suite("Service: what an import may change")
struct ImportSemanticsServiceTests {
    static let model = """
        { "entities": [
          { "name": "Board", "collection": "boards",
            "attributes": [ { "name": "title", "type": "string", "optional": true }, { "name": "extra", "type": "json", "optional": true } ],
            "relationships": [
              { "name": "cards", "destination": "Card", "toMany": true, "ordered": true, "inverse": "board", "deleteRule": "cascade" },
              { "name": "books", "destination": "Book", "toMany": true, "inverse": "boards", "deleteRule": "nullify" } ] },
          { "name": "Card", "collection": "cards",
            "attributes": [ { "name": "code", "type": "string", "optional": true } ],
            "relationships": [
              { "name": "board", "destination": "Board", "inverse": "cards" },
              { "name": "tasks", "destination": "Task", "toMany": true, "inverse": "card", "deleteRule": "cascade" } ] },
          { "name": "Task", "collection": "tasks",
            "attributes": [ { "name": "what", "type": "string", "optional": true } ],
            "relationships": [ { "name": "card", "destination": "Card", "inverse": "tasks" } ] },
          { "name": "Book", "collection": "books",
            "attributes": [ { "name": "isbn", "type": "string", "unique": true } ],
            "relationships": [ { "name": "boards", "destination": "Board", "toMany": true, "inverse": "books" } ] }
        ] }
        """

    static func json(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// A board with two cards (each with a task) and a book, and its export's header line.
    static func seed(_ client: ServiceClient) async throws -> (board: Int, header: [String: Any]) {
        let board = try await client.create(
            "boards", #"{"title":"a","cards":[{"code":"c1","tasks":[{"what":"t1"}]},{"code":"c2","tasks":[{"what":"t2"}]}],"books":[]}"#)
        let boardID = try #require(board["_id"] as? Int)
        #expect(try await client.post("/books", #"{"isbn":"b1","boards":[\#(boardID)]}"#).status == 201)
        let export = try await client.get("/boards/\(boardID)/export")
        let first = try #require(export.text.split(separator: "\n").first)
        let header = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        return (boardID, header)
    }

    /// A document of one board (ref 1) that links `relationship` to one reference line.
    static func document(header: [String: Any], relationship: String, reference: [String: Any]) throws -> String {
        var header = header
        header["root"] = ["entity": "Board", "ref": 1]
        return try [
            json(header), json(reference),
            json([
                "kind": "object", "entity": "Board", "ref": 1, "parent": NSNull(), "attributes": ["title": "b"],
                "relationships": [relationship: [1]],
            ]),
            json(["kind": "end", "objects": 1, "references": 1]),
        ].joined(separator: "\n")
    }

    @Test(
        "an existing object in an owned relationship is a 422 naming the line and relationship; its owner keeps it and its version",
        arguments: StoreBackendKind.available)
    func anImportNeverTakesAnOwnedObject(_ backend: StoreBackendKind) async throws {
        let model = Self.model.replacingOccurrences(
            of: #"{ "name": "code", "type": "string", "optional": true }"#, with: #"{ "name": "code", "type": "string", "unique": true }"#)
        try await TestService.withService(backend: backend, modelText: model) { service in
            let client = service.client
            let (boardID, header) = try await Self.seed(client)
            let before = try await client.get("/boards/\(boardID)")
            let counts = try await service.counts(["Board", "Card", "Task"])
            let card = ["kind": "reference", "entity": "Card", "ref": 1, "key": ["code": "c1"], "attributes": ["code": "c1"]] as [String: Any]
            for dryRun in ["", "dryRun=true"] {
                let response = try await client.importGraph(
                    "boards", try Self.document(header: header, relationship: "cards", reference: card), query: dryRun)
                #expect(response.status == 422, "\(dryRun): \(response.status) \(response.text)")
                #expect(response.text.contains("line 3.relationships.cards"), "\(response.text)")
            }
            let after = try await client.get("/boards/\(boardID)")
            #expect(after.header("ETag") == before.header("ETag"))
            #expect(try await client.linkedIDs(try after.json(), "cards").count == 2)
            #expect(try await service.counts(["Board", "Card", "Task"]) == counts, "nothing written")
        }
    }

    @Test("exclude on an import leaves out what it names and everything owned only through it, as on a clone", arguments: StoreBackendKind.available)
    func excludeMeansWhatItMeansOnAClone(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: Self.model) { service in
            let client = service.client
            let (boardID, _) = try await Self.seed(client)
            let document = try await client.get("/boards/\(boardID)/export").text
            for (query, cards, tasks) in [("exclude=cards", 0, 0), ("exclude=Card.tasks", 2, 0), ("", 2, 2)] {
                let counts = try await service.counts(["Board", "Card", "Task"])
                let response = try await client.importGraph("boards", document, query: query)
                #expect(response.status == 201, "\(query): \(response.text)")
                let created = try await service.counts(["Board", "Card", "Task"])
                #expect(created == [counts[0] + 1, counts[1] + cards, counts[2] + tasks], "\(query): \(counts) → \(created)")
                // A clone with the same exclusion creates the same objects.
                let excluded = query.split(separator: "=").dropFirst().map { #""\#($0)""# }.joined(separator: ",")
                let clone = try await client.post("/boards/\(boardID)/clone", #"{"exclude":[\#(excluded)]}"#)
                #expect(clone.status == 201, "\(clone.text)")
                let imported = try response.json()["created"] as? [String: Int] ?? [:]
                let cloned = try clone.json()["created"] as? [String: Int] ?? [:]
                #expect(imported.filter { $0.value > 0 } == cloned.filter { $0.value > 0 }, "\(query): import \(imported), clone \(cloned)")
                let board = try await client.get(try #require(response.header("Location"))).json()
                #expect(try await client.linkedIDs(board, "cards").count == cards, "\(query)")
            }
        }
    }

    @Test("an import takes ids as it needs them: one small import after another leaves no gap of a thousand", arguments: StoreBackendKind.available)
    func smallImportsLeaveSmallGaps(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: Self.model) { service in
            let client = service.client
            let (boardID, _) = try await Self.seed(client)
            let document = try await client.get("/boards/\(boardID)/export").text
            var boards: [Int] = []
            for _ in 0..<2 {
                let response = try await client.importGraph("boards", document, query: "")
                #expect(response.status == 201, "\(response.text)")
                let location = try #require(response.header("Location"))
                boards.append(try #require(Int(location.split(separator: "/").last ?? "")))
            }
            // Ids reserved in blocks that double from one: a one-board import reserves one board id.
            #expect(boards[1] - boards[0] <= 2, "boards \(boards)")
        }
    }

    @Test(
        "a text or json value larger than a create's body can carry is a 413 naming its line and attribute; nothing written",
        arguments: StoreBackendKind.available)
    func anImportBringsNoValueACreateCouldNot(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: Self.model, environment: ["CLONER_HTTP_MAX_BODY_BYTES": "4096"]) { service in
            let client = service.client
            let (boardID, _) = try await Self.seed(client)
            let document = try await client.get("/boards/\(boardID)/export").text
            #expect(document.contains(#""title":"a""#))
            let counts = try await service.counts(["Board", "Card", "Task"])
            #expect(document.contains(#""extra":null"#))
            for (original, replacement, field) in [
                (#""title":"a""#, #""title":"\#(String(repeating: "x", count: 4097))""#, "title"),
                (#""extra":null"#, #""extra":[\#(Array(repeating: "\"abcdefgh\"", count: 500).joined(separator: ","))]"#, "extra"),
            ] {
                let large = document.replacingOccurrences(of: original, with: replacement)
                let response = try await client.importGraph("boards", large)
                #expect(response.status == 413, "\(field): \(response.status) \(response.text.prefix(300))")
                #expect(response.text.contains("attributes.\(field)"), "\(response.text.prefix(300))")
                #expect(response.text.contains("http.maxBodyBytes"))
            }
            #expect(try await service.counts(["Board", "Card", "Task"]) == counts)
            let fits = document.replacingOccurrences(of: #""title":"a""#, with: #""title":"\#(String(repeating: "x", count: 4000))""#)
            #expect(try await client.importGraph("boards", fits).status == 201)
        }
    }
}
