import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// `rebuild: suffix` over HTTP on both stores (docs/architecture.md#unique-values-on-copy): a
/// unique text gets "(copy)", then the lowest free "(copy n)", wherever its entity is copied.
@Suite("Service: unique values regenerated on copy")
struct CopySuffixServiceTests {
    typealias F = EndToEndFixture

    static let model = """
        { "entities": [
          { "name": "Board", "collection": "boards",
            "attributes": [
              { "name": "title", "type": "string", "unique": true, "userInfo": { "rebuild": "suffix" } },
              { "name": "slug", "type": "string", "optional": true, "unique": true,
                "userInfo": { "rebuild": "suffix", "suffix": "-copy", "numberedSuffix": "-copy-%d", "maxLength": "12" } } ],
            "relationships": [
              { "name": "cards", "destination": "Card", "toMany": true, "ordered": true, "inverse": "board", "deleteRule": "cascade" } ] },
          { "name": "Card", "collection": "cards",
            "attributes": [
              { "name": "code", "type": "string", "unique": true, "userInfo": { "rebuild": "suffix" } },
              { "name": "lane", "type": "string", "optional": true },
              { "name": "label", "type": "string", "optional": true, "userInfo": { "rebuild": "suffix" } } ],
            "uniqueTogether": [ [ "lane", "label" ] ],
            "relationships": [ { "name": "board", "destination": "Board", "inverse": "cards" } ] }
        ] }
        """

    static let board = #"{"title": "Onboarding", "cards": [{"code": "A1", "lane": "todo", "label": "Read"}, {"code": "B2", "lane": "todo", "label": "Sign"}]}"#

    /// The board's title and its cards' codes and labels, read back over HTTP.
    static func read(_ client: ServiceClient, board id: Int) async throws -> (title: String?, slug: String?, codes: [String], labels: [String]) {
        let board = try await client.get("/boards/\(id)").json()
        var codes: [String] = []
        var labels: [String] = []
        for card in try await client.linkedIDs(board, "cards") {
            let record = try await client.get("/cards/\(card)").json()
            codes.append(record["code"] as? String ?? "")
            labels.append(record["label"] as? String ?? "")
        }
        return (board["title"] as? String, board["slug"] as? String, codes, labels)
    }

    static func cloneID(_ response: ClientResponse, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        #expect(response.status == 201, "\(response.text)", sourceLocation: sourceLocation)
        return try #require(F.int((try response.json()["clone"] as? [String: Any])?["id"]), sourceLocation: sourceLocation)
    }

    @Test("the root and its owned objects number their copies from the base, the lowest free number first", arguments: StoreBackendKind.available)
    func copiesAreNumbered(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: Self.model) { service in
            let client = service.client
            let source = try await client.createdID("boards", Self.board)

            let first = try Self.cloneID(try await client.post("/boards/\(source)/clone", "{}"))
            let copied = try await Self.read(client, board: first)
            #expect(copied.title == "Onboarding (copy)")
            #expect(copied.codes == ["A1 (copy)", "B2 (copy)"])
            #expect(copied.labels == ["Read (copy)", "Sign (copy)"], "uniqueTogether: the ruled attribute varies, the lane stays")

            let second = try Self.cloneID(try await client.post("/boards/\(source)/clone", "{}"))
            #expect(try await Self.read(client, board: second).title == "Onboarding (copy 2)")
            #expect(try await Self.read(client, board: second).codes == ["A1 (copy 2)", "B2 (copy 2)"])

            // A copy of a copy numbers from the base, as Finder does.
            let ofCopy = try Self.cloneID(try await client.post("/boards/\(first)/clone", "{}"))
            let third = try await Self.read(client, board: ofCopy)
            #expect(third.title == "Onboarding (copy 3)")
            #expect(third.codes == ["A1 (copy 3)", "B2 (copy 3)"])

            // A gap is filled first.
            #expect(try await client.delete("/boards/\(second)").status == 204)
            let refill = try Self.cloneID(try await client.post("/boards/\(source)/clone", "{}"))
            #expect(try await Self.read(client, board: refill).title == "Onboarding (copy 2)")
            #expect(try await Self.read(client, board: refill).codes == ["A1 (copy 2)", "B2 (copy 2)"])

            // `set` wins on the root; its owned objects are still numbered.
            let named = try Self.cloneID(try await client.post("/boards/\(source)/clone", #"{"set": {"title": "Onboarding 2027"}}"#))
            let setClone = try await Self.read(client, board: named)
            #expect(setClone.title == "Onboarding 2027")
            #expect(setClone.codes == ["A1 (copy 4)", "B2 (copy 4)"])

            // A card cloned on its own.
            let card = try await client.linkedIDs(try await client.get("/boards/\(source)").json(), "cards")[0]
            let cardClone = try Self.cloneID(try await client.post("/cards/\(card)/clone", "{}"))
            #expect(try await client.get("/cards/\(cardClone)").json()["code"] as? String == "A1 (copy 5)")
        }
    }

    @Test("copies: each copy takes the next free number, and a copy's own set keeps its value", arguments: StoreBackendKind.available)
    func everyCopyIsNumbered(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: Self.model) { service in
            let client = service.client
            let source = try await client.createdID("boards", Self.board)
            _ = try Self.cloneID(try await client.post("/boards/\(source)/clone", "{}"))

            let response = try await client.post("/boards/\(source)/clone", #"{"copies": 3}"#)
            #expect(response.status == 201, "\(response.text)")
            let clones = try #require(try response.json()["clones"] as? [[String: Any]]).compactMap { F.int($0["id"]) }
            var titles: [String?] = []
            var codes: [[String]] = []
            for id in clones {
                let clone = try await Self.read(client, board: id)
                titles.append(clone.title)
                codes.append(clone.codes)
            }
            #expect(titles == ["Onboarding (copy 2)", "Onboarding (copy 3)", "Onboarding (copy 4)"])
            #expect(codes == [["A1 (copy 2)", "B2 (copy 2)"], ["A1 (copy 3)", "B2 (copy 3)"], ["A1 (copy 4)", "B2 (copy 4)"]])

            let mixed = try await client.post("/boards/\(source)/clone", #"{"copies": [{"set": {"title": "Kept"}}, {}]}"#)
            #expect(mixed.status == 201, "\(mixed.text)")
            let mixedIDs = try #require(try mixed.json()["clones"] as? [[String: Any]]).compactMap { F.int($0["id"]) }
            #expect(try await Self.read(client, board: mixedIDs[0]).title == "Kept")
            #expect(try await Self.read(client, board: mixedIDs[1]).title == "Onboarding (copy 5)")
            #expect(try await Self.read(client, board: mixedIDs[1]).codes == ["A1 (copy 6)", "B2 (copy 6)"])
        }
    }

    @Test("a maximum length shortens the base, never the suffix; a slug names its own suffixes", arguments: StoreBackendKind.available)
    func maximumLengthShortensTheBase(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: Self.model) { service in
            let client = service.client
            let source = try await client.createdID("boards", #"{"title": "Slugs", "slug": "onboarding-x"}"#)
            var slugs: [String?] = []
            for _ in 0..<3 {
                let clone = try Self.cloneID(try await client.post("/boards/\(source)/clone", "{}"))
                slugs.append(try await Self.read(client, board: clone).slug)
            }
            #expect(slugs == ["onboard-copy", "onboa-copy-2", "onboa-copy-3"])
            let ofCopy = try Self.cloneID(try await client.post("/boards/\(try await Self.firstBoard(client, slug: "onboard-copy"))/clone", "{}"))
            #expect(try await Self.read(client, board: ofCopy).slug == "onboa-copy-4")
        }
    }

    static func firstBoard(_ client: ServiceClient, slug: String) async throws -> Int {
        let page = try await client.get("/boards?limit=100").json()
        let boards = try #require(page["data"] as? [[String: Any]])
        return try #require(boards.first { $0["slug"] as? String == slug }.flatMap { F.int($0["_id"]) })
    }

    @Test("a dry run answers the values it would give and writes nothing", arguments: StoreBackendKind.available)
    func dryRunReportsTheValues(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: Self.model) { service in
            let client = service.client
            let source = try await client.createdID("boards", Self.board)
            _ = try Self.cloneID(try await client.post("/boards/\(source)/clone", "{}"))
            let before = try await service.count("Board")

            let dry = try await client.post("/boards/\(source)/clone", #"{"copies": 2, "dryRun": true}"#)
            #expect(dry.status == 200, "\(dry.text)")
            let values = try #require(try dry.json()["values"] as? [String: [String]], "\(dry.text)")
            #expect(values["Board.title"] == ["Onboarding (copy 2)", "Onboarding (copy 3)"])
            #expect(values["Card.code"] == ["A1 (copy 2)", "B2 (copy 2)", "A1 (copy 3)", "B2 (copy 3)"])
            #expect(values["Board.slug"] == nil, "a null stays null and is no value given")
            #expect(try await service.count("Board") == before)

            let single = try await client.post("/boards/\(source)/clone", #"{"dryRun": true}"#)
            #expect((try single.json()["values"] as? [String: [String]])?["Board.title"] == ["Onboarding (copy 2)"])
        }
    }

    @Test("an import keeps values that clash with nothing and numbers those that do, as a clone would", arguments: StoreBackendKind.available)
    func importNumbersClashes(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: Self.model) { service in
            let client = service.client
            let source = try await client.createdID("boards", Self.board)
            _ = try Self.cloneID(try await client.post("/boards/\(source)/clone", "{}"))
            let document = try await client.get("/boards/\(source)/export").text

            var titles: [String?] = []
            var codes: [[String]] = []
            for _ in 0..<2 {
                let response = try await client.importGraph("boards", document, query: "")
                #expect(response.status == 201, "\(response.text)")
                let board = try response.cloneID()
                let imported = try await Self.read(client, board: board)
                titles.append(imported.title)
                codes.append(imported.codes)
            }
            #expect(titles == ["Onboarding (copy 2)", "Onboarding (copy 3)"])
            #expect(codes == [["A1 (copy 2)", "B2 (copy 2)"], ["A1 (copy 3)", "B2 (copy 3)"]])

            // Into an empty store nothing clashes: the document's values stay.
            #expect(try await client.delete("/boards/\(source)").status == 204)
            let page = try await client.get("/boards?limit=100").json()
            for board in try #require(page["data"] as? [[String: Any]]) {
                #expect(try await client.delete("/boards/\(try #require(F.int(board["_id"])))").status == 204)
            }
            let fresh = try await client.importGraph("boards", document, query: "")
            #expect(fresh.status == 201, "\(fresh.text)")
            let board = try fresh.cloneID()
            #expect(try await Self.read(client, board: board).title == "Onboarding")
            #expect(try await Self.read(client, board: board).codes == ["A1", "B2"])
        }
    }

    @Test("without the rule a repeated unique value is a 409 that names the rule", arguments: StoreBackendKind.available)
    func withoutTheRuleTheConflictNamesIt(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let tag = try await service.client.createdID("tags", #"{"name": "home"}"#)
            let clone = try await service.client.post("/tags/\(tag)/clone", "{}")
            #expect(clone.status == 409, "\(clone.text)")
            #expect(clone.text.contains("rebuild: suffix"), "\(clone.text)")
        }
    }

    @Test("a clash below the root says set cannot reach it and names the rule that can", arguments: StoreBackendKind.available)
    func aClashBelowTheRootNamesWhatCanHelp(_ backend: StoreBackendKind) async throws {
        let model = """
            { "entities": [
              { "name": "Shop", "collection": "shops", "attributes": [ { "name": "name", "type": "string", "optional": true } ],
                "relationships": [ { "name": "products", "destination": "Product", "toMany": true, "inverse": "shop", "deleteRule": "cascade" } ] },
              { "name": "Product", "collection": "products", "attributes": [ { "name": "sku", "type": "string", "unique": true } ],
                "relationships": [ { "name": "shop", "destination": "Shop", "inverse": "products" } ] }
            ] }
            """
        try await TestService.withService(backend: backend, modelText: model) { service in
            let client = service.client
            let shop = try await client.createdID("shops", #"{"name": "a", "products": [{"sku": "X1"}]}"#)
            let clone = try await client.post("/shops/\(shop)/clone", #"{"set": {"name": "b"}}"#)
            #expect(clone.status == 409, "\(clone.text)")
            let problem = try clone.json()
            #expect(problem["field"] as? String == "sku")
            let detail = try #require(problem["detail"] as? String)
            #expect(detail.contains("Product.sku") && detail.contains("not the root"), "\(detail)")
            #expect(detail.contains("rebuild: suffix") && !detail.contains("use set"), "\(detail)")
        }
    }

    @Test("a dry run lists every unique constraint the clone would break, as the clone answers 409", arguments: StoreBackendKind.available)
    func aDryRunListsEveryClash(_ backend: StoreBackendKind) async throws {
        let model = """
            { "entities": [
              { "name": "Shop", "collection": "shops", "attributes": [ { "name": "name", "type": "string", "unique": true } ],
                "relationships": [ { "name": "products", "destination": "Product", "toMany": true, "inverse": "shop", "deleteRule": "cascade" } ] },
              { "name": "Product", "collection": "products",
                "attributes": [ { "name": "sku", "type": "string", "optional": true, "unique": true },
                                { "name": "lane", "type": "string" }, { "name": "slot", "type": "integer" } ],
                "uniqueTogether": [ [ "lane", "slot" ] ],
                "relationships": [ { "name": "shop", "destination": "Shop", "inverse": "products" } ] }
            ] }
            """
        try await TestService.withService(backend: backend, modelText: model) { service in
            let client = service.client
            let body = #"{"name": "a", "products": [{"sku": "X1", "lane": "l", "slot": 1}, {"lane": "l", "slot": 2}]}"#
            let shop = try await client.createdID("shops", body)
            let before = try await service.counts(["Shop", "Product"])

            let dry = try await client.post("/shops/\(shop)/clone", #"{"dryRun": true}"#)
            #expect(dry.status == 200, "\(dry.text)")
            let conflicts = try #require(try dry.json()["conflicts"] as? [[String: Any]], "\(dry.text)")
            let found = conflicts.map {
                "\($0["entity"] as? String ?? "").\(($0["attributes"] as? [String] ?? []).joined(separator: "+")):\($0["objects"] as? Int ?? -1)"
            }
            // The root's name, one product's sku (the other has none), both products' lane and slot.
            #expect(Set(found) == ["Shop.name:1", "Product.sku:1", "Product.lane+slot:2"], "\(found)")
            #expect(try await service.counts(["Shop", "Product"]) == before, "a dry run writes nothing")
            #expect(try await client.post("/shops/\(shop)/clone", "{}").status == 409, "the clone meets them")

            // With the root's name set, only the products' remain; a dry run that would break
            // nothing says nothing of conflicts.
            let named = try await client.post("/shops/\(shop)/clone", #"{"dryRun": true, "set": {"name": "b"}}"#).json()
            #expect((named["conflicts"] as? [[String: Any]])?.count == 2)
            let empty = try await client.createdID("shops", #"{"name": "c"}"#)
            let clean = try await client.post("/shops/\(empty)/clone", #"{"dryRun": true, "set": {"name": "d"}}"#)
            let cleanBody = try clean.json()
            #expect(clean.status == 200 && cleanBody["conflicts"] == nil, "\(clean.text)")
        }
    }

    @Test("concurrent clones of one board never take the same number", arguments: StoreBackendKind.available)
    func concurrentClonesTakeDistinctNumbers(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: Self.model) { service in
            let client = service.client
            let source = try await client.createdID("boards", Self.board)
            let clones = 6
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<clones { group.addTask { try await client.post("/boards/\(source)/clone", "{}").status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 201, count: clones), "\(statuses)")
            let page = try await client.get("/boards?limit=100").json()
            let titles = Set(try #require(page["data"] as? [[String: Any]]).compactMap { $0["title"] as? String })
            #expect(titles == Set(["Onboarding", "Onboarding (copy)"] + (2...clones).map { "Onboarding (copy \($0))" }))
        }
    }
}
