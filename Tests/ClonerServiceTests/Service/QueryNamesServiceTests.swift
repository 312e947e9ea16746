import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// A model whose properties are named like the list route's controls — a to-one `order`,
/// attributes `limit`, `after`, `cursor` — as a JSON model and as a Core Data model: the explicit
/// `where.NAME` filter reaches each of them while `order`, `limit`, `after` and `cursor` stay
/// controls, `_lists` and `next` links use the explicit form, and the served description lists
/// every parameter once.
@Suite("Service: properties named like the list route's query controls")
struct QueryNamesServiceTests {
    typealias F = EndToEndFixture

    static let jsonModel = """
        { "entities": [
          { "name": "Label", "collection": "labels",
            "attributes": [ { "name": "text", "type": "string", "optional": true } ],
            "relationships": [ { "name": "order", "destination": "Order", "inverse": "labels" } ] },
          { "name": "Order", "collection": "orders",
            "attributes": [
              { "name": "after", "type": "string", "optional": true },
              { "name": "cursor", "type": "string", "optional": true },
              { "name": "limit", "type": "integer", "default": 0 } ],
            "relationships": [
              { "name": "labels", "destination": "Label", "toMany": true, "inverse": "order", "deleteRule": "cascade",
                "optional": false, "maxCount": 2 },
              { "name": "lines", "destination": "OrderItem", "toMany": true, "inverse": "order", "deleteRule": "cascade" } ] },
          { "name": "OrderItem", "collection": "orderitems",
            "attributes": [
              { "name": "after", "type": "string", "optional": true },
              { "name": "cursor", "type": "string", "optional": true },
              { "name": "limit", "type": "integer", "optional": true },
              { "name": "name", "type": "string", "optional": true } ],
            "relationships": [ { "name": "order", "destination": "Order", "inverse": "lines", "optional": false } ] }
        ] }
        """

    static let coreDataModel = repositoryRoot.appendingPathComponent("Tests/Fixtures/CoreData/Shop.xcdatamodeld")

    enum ModelSource: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case json, coreData
        var testDescription: String { rawValue }
    }

    static func withService(_ backend: StoreBackendKind, _ source: ModelSource, _ body: (TestService) async throws -> Void) async throws {
        switch source {
        case .json: try await TestService.withService(backend: backend, modelText: jsonModel, body)
        case .coreData: try await TestService.withService(backend: backend, overrides: .init(modelPath: coreDataModel.path), body)
        }
    }

    /// Collections by entity name, as GET /model names them (the Core Data reader derives them).
    static func collections(_ client: ServiceClient) async throws -> [String: String] {
        let model = try await client.get("/model").json()
        var collections: [String: String] = [:]
        for entity in model["entities"] as? [[String: Any]] ?? [] {
            if let name = entity["name"] as? String, let collection = entity["collection"] as? String { collections[name] = collection }
        }
        return collections
    }

    static func names(_ client: ServiceClient, _ path: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String] {
        let answer = try await client.get(path)
        #expect(answer.status == 200, "\(path): \(answer.text)", sourceLocation: sourceLocation)
        return (try answer.json()["data"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    static func expectRefused(
        _ client: ServiceClient, _ path: String, field: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let answer = try await client.get(path)
        #expect(answer.status == 422, "\(path): \(answer.text)", sourceLocation: sourceLocation)
        #expect(try answer.json()["field"] as? String == field, "\(path): \(answer.text)", sourceLocation: sourceLocation)
    }

    @Test(
        "where.NAME filters by order, limit, after and cursor; the plain words stay controls; bad filters are 422 naming the parameter",
        arguments: StoreBackendKind.available, ModelSource.allCases)
    func filtersAndControls(_ backend: StoreBackendKind, _ source: ModelSource) async throws {
        try await Self.withService(backend, source) { service in
            let client = service.client
            let collection = try await Self.collections(client)
            let orders = try #require(collection["Order"]), items = try #require(collection["OrderItem"])
            let first = try await client.createdID(orders, #"{"limit": 3, "after": "a", "cursor": "c"}"#)
            let second = try await client.createdID(orders, "{}")
            for (order, limit, after, cursor, name) in [(first, 5, "x", "c1", "a"), (second, 7, "y", "c2", "b"), (first, 7, "y", "c2", "c")] {
                _ = try await client.create(
                    items, #"{"order": \#(order), "limit": \#(limit), "after": "\#(after)", "cursor": "\#(cursor)", "name": "\#(name)"}"#)
            }

            #expect(try await Self.names(client, "/\(items)?where.order=\(first)") == ["a", "c"])
            #expect(try await Self.names(client, "/\(items)?where.limit=7") == ["b", "c"])
            #expect(try await Self.names(client, "/\(items)?where.after=y") == ["b", "c"])
            #expect(try await Self.names(client, "/\(items)?where.cursor=c1") == ["a"])
            #expect(try await Self.names(client, "/\(items)?where.name=b") == ["b"], "the explicit form works for any property")
            #expect(try await Self.names(client, "/\(items)?name=b") == ["b"], "the plain form stays for unreserved names")
            let ordersAnswer = try await client.get("/\(orders)?where.limit=3&where.after=a&where.cursor=c").json()
            #expect((ordersAnswer["data"] as? [[String: Any]])?.compactMap { F.int($0["_id"]) } == [first])

            // The controls: order and limit order and cut the page; next carries the filter explicitly.
            let page = try await client.get("/\(items)?where.order=\(first)&order=-name&limit=1").json()
            #expect((page["data"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["c"])
            let next = try #require(page["next"] as? String)
            #expect(next.contains("where.order=\(first)") && next.contains("order=-name"), "\(next)")
            #expect(try await Self.names(client, next) == ["a"])
            let ordered = try await client.get("/\(items)?order=-limit,name&limit=2").json()
            #expect((ordered["data"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["b", "c"])
            let after = try await client.get("/\(items)?after=1&limit=1").json()
            #expect((after["data"] as? [[String: Any]])?.count == 1)

            try await Self.expectRefused(client, "/\(items)?where.order=x", field: "where.order")
            try await Self.expectRefused(client, "/\(items)?where.limit=seven", field: "where.limit")
            try await Self.expectRefused(client, "/\(items)?where.nothing=1", field: "where.nothing")
            try await Self.expectRefused(client, "/\(items)?where.=1", field: "where.")
            try await Self.expectRefused(client, "/\(items)?order=\(first)", field: "order")
            try await Self.expectRefused(client, "/\(items)?limit=0", field: "limit")
            try await Self.expectRefused(client, "/\(items)?name=a&where.name=a", field: "where.name")
        }
    }

    @Test(
        "the _lists link of an order past 1000 lines filters by where.order, and it and its next link answer 200",
        arguments: StoreBackendKind.available, ModelSource.allCases)
    func longListLinkFollows(_ backend: StoreBackendKind, _ source: ModelSource) async throws {
        try await Self.withService(backend, source) { service in
            let client = service.client
            let collection = try await Self.collections(client)
            let orders = try #require(collection["Order"]), items = try #require(collection["OrderItem"])
            let lines = (0..<1001).map { #"{"name": "l\#($0)"}"# }.joined(separator: ",")
            let order = try await client.create(orders, #"{"lines": [\#(lines)]}"#)
            let id = try #require(F.int(order["_id"]))
            let all = try #require((order["_lists"] as? [String: [String: Any]])?["lines"]?["all"] as? String)
            #expect(all == "/\(items)?where.order=\(id)")
            let first = try await client.get(all + "&limit=1000")
            #expect(first.status == 200, "\(first.text.prefix(300))")
            let page = try first.json()
            #expect((page["data"] as? [[String: Any]])?.count == 1000)
            let next = try #require(page["next"] as? String)
            let rest = try await client.get(next)
            #expect(rest.status == 200, "\(rest.text.prefix(300))")
            #expect((try rest.json()["data"] as? [[String: Any]])?.count == 1)
            #expect(try await client.linkedIDs(order, "lines").count == 1001)
        }
    }

    @Test("the served description lists each query parameter once, the reserved names only as where.NAME, and is valid OpenAPI")
    func servedDescriptionHasNoDuplicateParameter() async throws {
        try await Self.withService(.sqlite, .json) { service in
            let answer = try await service.client.get("/openapi.yaml")
            #expect(answer.status == 200)
            let document = try YAMLReader.parse(answer.body)
            let paths = try #require(document["paths"] as? [String: Any])
            for (path, item) in paths {
                guard let item = item as? [String: Any] else { continue }
                let shared = Self.parameterKeys(item["parameters"])
                for (method, operation) in item {
                    guard let operation = operation as? [String: Any] else { continue }
                    let keys = shared + Self.parameterKeys(operation["parameters"])
                    #expect(Set(keys).count == keys.count, "\(method) \(path) lists a parameter twice: \(keys.sorted())")
                }
            }
            let list = try #require(((paths["/orderitems"] as? [String: Any])?["get"] as? [String: Any])?["parameters"] as? [[String: Any]])
            let names = list.compactMap { $0["name"] as? String }
            for name in ["limit", "after", "cursor", "order", "where.order", "where.limit", "where.after", "where.cursor", "name"] {
                #expect(names.contains(name), "\(name) missing from \(names)")
            }
            #expect(!names.contains("where.name"), "an unreserved name is listed plainly")
            try OpenAPIValidator.validate(answer.body)
        }
    }

    /// `name in` of every parameter listed inline (a `$ref` counts as its own target).
    static func parameterKeys(_ value: Any?) -> [String] {
        (value as? [[String: Any]] ?? []).map { parameter in
            if let reference = parameter["$ref"] as? String { return reference }
            return "\(parameter["name"] as? String ?? "?") in \(parameter["in"] as? String ?? "?")"
        }
    }
}
