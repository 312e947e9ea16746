import ClonerService
import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// Core Data's Decimal attributes (Tests/Fixtures/CoreData/Prices.xcdatamodeld) through the real
/// server: every digit kept on create, PATCH, clone and import, strings of digits in answers,
/// numbers accepted on input, and filters, order and paging by the number rather than the text.
@Suite("Service: exact decimals")
struct DecimalServiceTests {
    typealias F = EndToEndFixture

    static let bundle = repositoryRoot.appendingPathComponent("Tests/Fixtures/CoreData/Prices.xcdatamodeld")

    /// A line's price as answered.
    static func price(_ record: [String: Any]) -> String? { record["price"] as? String }

    @Test("exact values in and out: strings, JSON numbers, Core Data defaults, PATCH", arguments: StoreBackendKind.available)
    func exactValues(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, overrides: .init(modelPath: Self.bundle.path)) { service in
            let client = service.client
            let invoice = try await client.create("invoices", #"{"number": "A-1"}"#)
            #expect(invoice["total"] as? String == "0" && invoice["discount"] as? String == "12.5", "defaultValueString 0 and 12.50: \(invoice)")

            let written: [(body: String, answer: String)] = [
                (#""12345678901234567890.123456789""#, "12345678901234567890.123456789"),
                (#""-0.10""#, "-0.1"), (#""0""#, "0"), (#""-0""#, "0"), (#""007.500""#, "7.5"), (#""1.5e3""#, "1500"),
                (#""99999999999999999999999999999999999999""#, "99999999999999999999999999999999999999"),
                (#""0.00000000000000000000000000000000000001""#, "0.00000000000000000000000000000000000001"),
                // NSDecimal's extremes: 38 digits times 10^127, and 10^-128.
                (#""9.9999999999999999999999999999999999999e164""#, String(repeating: "9", count: 38) + String(repeating: "0", count: 127)),
                (#""-1e-128""#, "-0." + String(repeating: "0", count: 127) + "1"),
                // JSON numbers: every digit of the literal, never its double.
                ("12.50", "12.5"), ("12345678901234567890.123456789", "12345678901234567890.123456789"),
                ("0.1", "0.1"), ("-3", "-3"), ("123456789012345678901234567890", "123456789012345678901234567890"), ("1e-5", "0.00001"),
            ]
            for (body, answer) in written {
                let line = try await client.create("lines", #"{"price": \#(body)}"#)
                #expect(Self.price(line) == answer, "\(body): \(line)")
                let id = try #require(F.int(line["_id"]))
                let read = try await client.get("/lines/\(id)").json()
                #expect(Self.price(read) == answer, "\(body) read back: \(read)")
                let stored = try await service.sql(#"SELECT price FROM "Line" WHERE "_id" = \#(id);"#)
                #expect(stored == answer, "\(body) as the store holds it")
            }
            if backend == .postgreSQL {
                #expect(
                    try await service.sql(#"SELECT data_type FROM information_schema.columns WHERE table_name = 'Line' AND column_name = 'price';"#)
                        == "numeric")
            }

            let line = try await client.create("lines", #"{"price": "1.25"}"#)
            let id = try #require(F.int(line["_id"]))
            var answer = try await client.patch("/lines/\(id)", #"{"price": "1.250"}"#)
            let unchanged = try answer.json()
            #expect(answer.status == 200 && F.int(unchanged["_version"]) == F.int(line["_version"]), "the same number changes nothing: \(answer.text)")
            answer = try await client.patch("/lines/\(id)", #"{"price": "-98765432109876543210.5"}"#)
            #expect(Self.price(try answer.json()) == "-98765432109876543210.5", "\(answer.text)")
            answer = try await client.patch("/lines/\(id)", #"{"price": null}"#)
            #expect(try answer.json()["price"] is NSNull, "\(answer.text)")

            // Written by hand with the database's own shell, with zeros the service never writes:
            // read back as the same number, in its one form.
            _ = try await service.sql(#"UPDATE "Line" SET price = '0077.700' WHERE "_id" = \#(id);"#)
            #expect(Self.price(try await client.get("/lines/\(id)").json()) == "77.7")
            let equal = try await client.get("/lines?price=77.70&order=price").json()
            #expect(((equal["data"] as? [[String: Any]]) ?? []).compactMap { F.int($0["_id"]) } == [id])
        }
    }

    @Test("a value that is not an exact decimal is a 422 naming the field; nothing is written", arguments: StoreBackendKind.available)
    func refusals(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, overrides: .init(modelPath: Self.bundle.path)) { service in
            let client = service.client
            let refused: [(body: String, reason: String)] = [
                (#""abc""#, "not a decimal number"), (#""NaN""#, "not a decimal number"), (#""1,5""#, "not a decimal number"),
                (#""""#, "not a decimal number"), (#"" 1""#, "not a decimal number"), ("true", "got true"), ("[1]", "got an array"),
                (#""1e999999""#, "out of range"), (#""1e-129""#, "out of range"), ("1e-400", "out of range"),
                (#""1234567890123456789012345678901234567891""#, "40 significant digits, more than the 38"),
                ("0.123456789012345678901234567890123456789", "39 significant digits"),
            ]
            for (body, reason) in refused {
                let answer = try await client.post("/lines", #"{"label": "x", "price": \#(body)}"#)
                #expect(answer.status == 422, "\(body): \(answer.text)")
                let problem = try answer.json()
                #expect(problem["field"] as? String == "price", "\(body): \(answer.text)")
                #expect(answer.text.contains("expected a decimal number") && answer.text.contains(reason), "\(body): \(answer.text)")
            }
            // JSON itself has no number beyond a double's range: the parser refuses it, as for every number.
            #expect(try await client.post("/lines", #"{"price": 1e999999}"#).status == 400)
            let nested = try await client.post("/invoices", #"{"lines": [{"price": "x"}]}"#)
            #expect(nested.status == 422, "\(nested.text)")
            #expect(try nested.json()["field"] as? String == "lines[0].price", "\(nested.text)")
            let query = try await client.get("/lines?price=abc")
            #expect(query.status == 422, "\(query.text)")
            #expect(try query.json()["field"] as? String == "price", "\(query.text)")
            #expect(try await service.counts(["Line", "Invoice"]) == [0, 0])
        }
    }

    @Test("filters, order and paging compare numbers, not text", arguments: StoreBackendKind.available)
    func orderAndFilters(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, overrides: .init(modelPath: Self.bundle.path)) { service in
            let client = service.client
            let prices = ["9", "10", "-1", "-0.5", "100.25", "0", "12.5", "-10", "0.001", "99999999999999999999.5", "-2.75", "1e2"]
            var ids: [String: Int] = [:]
            for price in prices {
                let line = try await client.create("lines", #"{"price": "\#(price)", "label": "p"}"#)
                ids[try #require(Self.price(line))] = F.int(line["_id"])
            }
            _ = try await client.create("lines", #"{"label": "none"}"#)
            let ascending = ["-10", "-2.75", "-1", "-0.5", "0", "0.001", "9", "10", "12.5", "100", "100.25", "99999999999999999999.5"]

            let all = try await client.get("/lines?order=price&limit=100").json()
            let listed = ((all["data"] as? [[String: Any]]) ?? []).map { $0["price"] as? String ?? "null" }
            #expect(listed == ["null"] + ascending, "NULL first, then by value: \(listed)")
            let descending = try await client.get("/lines?order=-price&limit=100").json()
            #expect(((descending["data"] as? [[String: Any]]) ?? []).map { $0["price"] as? String ?? "null" } == ascending.reversed() + ["null"])

            // Pages of three through the order, each starting at the cursor the last one gave.
            var paged: [String] = []
            var path: String? = "/lines?order=price,-_id&limit=3&where.label=p"
            var pages = 0
            while let current = path, pages < 10 {
                let page = try await client.get(current)
                #expect(page.status == 200, "\(current): \(page.text.prefix(300))")
                let body = try page.json()
                paged += ((body["data"] as? [[String: Any]]) ?? []).compactMap(Self.price)
                path = body["next"] as? String
                pages += 1
            }
            #expect(paged == ascending, "\(paged)")
            // After a record, by its `_id`, under the decimal order.
            let after = try await client.get("/lines?order=price&where.label=p&after=\(try #require(ids["9"]))").json()
            #expect(((after["data"] as? [[String: Any]]) ?? []).compactMap(Self.price) == Array(ascending.dropFirst(7)))

            for (filter, expected) in [("12.50", ["12.5"]), ("1.25e1", ["12.5"]), ("-0.50", ["-0.5"]), ("100.0", ["100"]), ("7", [])] {
                let page = try await client.get("/lines?price=\(filter)").json()
                #expect(((page["data"] as? [[String: Any]]) ?? []).compactMap(Self.price) == expected, "price=\(filter)")
            }
        }
    }

    @Test("a clone, its set and an export imported again keep every digit", arguments: StoreBackendKind.available)
    func cloneAndImport(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, overrides: .init(modelPath: Self.bundle.path)) { service in
            let client = service.client
            let exact = "12345678901234567890.123456789012345678"
            let invoice = try await client.create(
                "invoices", #"{"number": "A-1", "total": "\#(exact)", "tax": "0.2", "lines": [{"price": "0.10"}, {"price": "-7.000001"}]}"#)
            let invoiceID = try #require(F.int(invoice["_id"]))

            let cloned = try await client.post("/invoices/\(invoiceID)/clone", #"{"set": {"discount": "0.000000000000000000000000000000000000005"}}"#)
            #expect(cloned.status == 201, "\(cloned.text)")
            let cloneID = try cloned.cloneID()
            let copy = try await client.get("/invoices/\(cloneID)").json()
            #expect(copy["total"] as? String == exact && copy["discount"] as? String == "0.000000000000000000000000000000000000005", "\(copy)")
            #expect(copy["tax"] as? String == "0.125", "excluded: the default, as the clone SQL spells it: \(copy)")
            var copiedPrices: [String] = []
            for line in F.ints(copy["lines"]) ?? [] { copiedPrices.append(Self.price(try await client.get("/lines/\(line)").json()) ?? "null") }
            #expect(copiedPrices.sorted() == ["-7.000001", "0.1"], "\(copiedPrices)")
            let refused = try await client.post("/invoices/\(invoiceID)/clone", #"{"set": {"total": "x"}}"#)
            #expect(refused.status == 422 && refused.text.contains("total"), "\(refused.text)")

            let document = try await client.get("/invoices/\(invoiceID)/export").text
            #expect(document.contains(#""total":"\#(exact)""#), "the document writes the digits as a string")
            let imported = try await client.importGraph("invoices", document)
            #expect(imported.status == 201, "\(imported.text)")
            let importedID = try imported.cloneID()
            let importedInvoice = try await client.get("/invoices/\(importedID)").json()
            #expect(importedInvoice["total"] as? String == exact && importedInvoice["discount"] as? String == "12.5", "\(importedInvoice)")
            #expect(try await service.count("Line") == 6)
            // A document may write a decimal as a JSON number: read from its text, not a double.
            let numbered = document.replacingOccurrences(of: #""total":"\#(exact)""#, with: #""total":\#(exact)"#)
            #expect(numbered != document)
            let again = try await client.importGraph("invoices", numbered)
            let againID = try again.cloneID()
            #expect(try await client.get("/invoices/\(againID)").json()["total"] as? String == exact)
        }
    }

    /// A model file's decimal, unique: two texts of one number are one value to the index.
    static let uniqueModel = #"""
        {"entities": [{"name": "Rate", "attributes": [{"name": "amount", "type": "decimal", "unique": true}]}]}
        """#

    @Test("a unique decimal refuses the same number however it is written", arguments: StoreBackendKind.available)
    func uniqueDecimals(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: Self.uniqueModel) { service in
            let client = service.client
            #expect(try await client.post("/rates", #"{"amount": "12.50"}"#).status == 201)
            for body in [#"{"amount": 12.5}"#, #"{"amount": "1.25e1"}"#, #"{"amount": "0012.5000"}"#] {
                let answer = try await client.post("/rates", body)
                #expect(answer.status == 409 && answer.text.contains("amount"), "\(body): \(answer.text)")
            }
            #expect(try await client.post("/rates", #"{"amount": "12.51"}"#).status == 201)
            #expect(try await service.count("Rate") == 2)
        }
    }
}
