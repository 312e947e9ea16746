import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// Attribute values at the edges of their types (docs/architecture.md#the-model-file, #records), each round-tripped through
/// create, read, an equality filter and a clone against the real binary: what goes in comes back
/// byte for byte, or the create is refused with a 4xx naming the field and nothing is written.
@Suite("Service: attribute values at their edges")
struct ValueEdgesServiceTests {
    typealias F = EndToEndFixture

    /// One optional attribute per type and no clone rules, so a clone copies every value as is.
    static let model = """
        { "entities": [ { "name": "Sample", "collection": "samples", "attributes": [
            { "name": "s", "type": "string", "optional": true },
            { "name": "i", "type": "integer", "optional": true },
            { "name": "d", "type": "double", "optional": true },
            { "name": "b", "type": "boolean", "optional": true },
            { "name": "t", "type": "date", "optional": true },
            { "name": "u", "type": "uuid", "optional": true },
            { "name": "bin", "type": "binary", "optional": true },
            { "name": "j", "type": "json", "optional": true } ] } ] }
        """

    /// A value sent as `json` in a body, `query` in a filter (nil: not filtered, e.g. too long for
    /// a URL), and how the answer's value is checked.
    struct Case {
        let field: String
        let json: String
        let query: String?
        let check: @Sendable (Any?) -> Bool

        /// A string holding U+0000: PostgreSQL's text cannot store it, so there the create is a
        /// 422 naming the field (and nothing is written); SQLite keeps every byte.
        var holdsNUL: Bool { field == "s" && json.contains("\\u0000") }
    }

    static func exactString(_ expected: String) -> @Sendable (Any?) -> Bool {
        // UTF-8 bytes, not `==`: Swift compares strings by canonical equivalence.
        { ($0 as? String).map { Array($0.utf8) } == Array(expected.utf8) }
    }

    static func exactInteger(_ expected: Int64) -> @Sendable (Any?) -> Bool {
        { ($0 as? NSNumber)?.int64Value == expected && ($0 as? NSNumber).map { "\($0)" } == "\(expected)" }
    }

    static func exactDouble(_ expected: Double) -> @Sendable (Any?) -> Bool {
        { value in
            guard let number = (value as? NSNumber)?.doubleValue else { return false }
            return number.bitPattern == expected.bitPattern
        }
    }

    static let largeBinary: Data = {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<(5 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }()

    static let deepJSON: String = String(repeating: "{\"a\":[", count: 200) + "\"nul\\u0000\"" + String(repeating: "]}", count: 200)

    static let cases: [Case] = {
        let nul = "nul\u{0}tail"
        let emoji = "👩‍👩‍👧‍👦 🇺🇳 😀"
        let fourByte = "𝄞𐍈𠜎"
        let decomposed = "e\u{301}"
        let large = String(repeating: "ab\u{0}😀", count: 100_000)
        let uuid = UUID().uuidString.lowercased()
        let base64 = largeBinary.base64EncodedString()
        return [
            Case(field: "s", json: "\"nul\\u0000tail\"", query: nul, check: exactString(nul)),
            Case(field: "s", json: "\"\\u0000\"", query: "\u{0}", check: exactString("\u{0}")),
            Case(field: "s", json: "\"\(emoji)\"", query: emoji, check: exactString(emoji)),
            Case(field: "s", json: "\"\(fourByte)\"", query: fourByte, check: exactString(fourByte)),
            Case(field: "s", json: "\"\\ud834\\udd1e\"", query: "𝄞", check: exactString("𝄞")),
            Case(field: "s", json: "\"\(decomposed)\"", query: decomposed, check: exactString(decomposed)),
            Case(field: "s", json: "\"\"", query: "", check: exactString("")),
            Case(field: "s", json: "\"" + large.replacingOccurrences(of: "\u{0}", with: "\\u0000") + "\"", query: nil, check: exactString(large)),
            Case(field: "i", json: "-9223372036854775808", query: "-9223372036854775808", check: exactInteger(.min)),
            Case(field: "i", json: "9223372036854775807", query: "9223372036854775807", check: exactInteger(.max)),
            Case(field: "i", json: "0", query: "0", check: exactInteger(0)),
            // SQLite keeps no negative zero in a REAL column (it stores an integral REAL as an
            // integer), so the service stores -0.0 as 0 on both stores: it reads back as 0 and a
            // filter on -0.0 or 0 finds it, whichever store.
            Case(field: "d", json: "-0.0", query: "-0.0", check: exactDouble(0.0)),
            Case(field: "d", json: "-0.0", query: "0", check: exactDouble(0.0)),
            Case(field: "d", json: "1.7976931348623157e308", query: "1.7976931348623157e308", check: exactDouble(.greatestFiniteMagnitude)),
            Case(field: "d", json: "-1.7976931348623157e308", query: "-1.7976931348623157e308", check: exactDouble(-.greatestFiniteMagnitude)),
            Case(field: "d", json: "5e-324", query: "5e-324", check: exactDouble(.leastNonzeroMagnitude)),
            Case(field: "d", json: "2.2250738585072014e-308", query: "2.2250738585072014e-308", check: exactDouble(.leastNormalMagnitude)),
            Case(field: "d", json: "0.1", query: "0.1", check: exactDouble(0.1)),
            Case(field: "d", json: "3.0", query: "3", check: exactDouble(3)),
            Case(field: "b", json: "false", query: "false", check: { ($0 as? Bool) == false }),
            Case(field: "t", json: "\"1969-07-20T20:17:40.123Z\"", query: "1969-07-20T20:17:40.123Z", check: exactString("1969-07-20T20:17:40.123Z")),
            Case(field: "t", json: "\"1969-12-31T23:59:59.999Z\"", query: "1969-12-31T23:59:59.999Z", check: exactString("1969-12-31T23:59:59.999Z")),
            Case(field: "t", json: "\"0001-01-01T00:00:00.000Z\"", query: "0001-01-01T00:00:00.000Z", check: exactString("0001-01-01T00:00:00.000Z")),
            Case(field: "t", json: "\"9999-12-31T23:59:59.999Z\"", query: "9999-12-31T23:59:59.999Z", check: exactString("9999-12-31T23:59:59.999Z")),
            Case(field: "u", json: "\"\(uuid.uppercased())\"", query: uuid, check: exactString(uuid)),
            Case(field: "bin", json: "\"\"", query: "", check: exactString("")),
            Case(field: "bin", json: "\"AA==\"", query: "AA==", check: exactString("AA==")),
            Case(field: "bin", json: "\"\(base64)\"", query: nil, check: exactString(base64)),
            Case(
                field: "j", json: deepJSON, query: deepJSON,
                check: { value in
                    // 200 levels of {"a":[...]} around a string with a NUL.
                    var current: Any? = value
                    for _ in 0..<200 { current = ((current as? [String: Any])?["a"] as? [Any])?.first }
                    return (current as? String).map { Array($0.utf8) } == Array("nul\u{0}".utf8)
                }),
            Case(
                field: "j", json: "{\"emoji\":\"😀\",\"n\":-9223372036854775808}", query: "{\"n\":-9223372036854775808,\"emoji\":\"😀\"}",
                check: { value in
                    let object = value as? [String: Any]
                    return (object?["emoji"] as? String) == "😀" && (object?["n"] as? NSNumber)?.int64Value == .min
                }),
        ]
    }()

    static func queryEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    @Test("every attribute type at its edges survives create, read, filter and clone exactly", arguments: StoreBackendKind.available)
    func edgesRoundTrip(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: Self.model) { service in
            let client = service.client
            var written = 0
            for (number, sample) in Self.cases.enumerated() {
                let label = "case \(number) (\(sample.field) = \(sample.json.prefix(60)))"
                let created = try await client.post("/samples", "{\"\(sample.field)\":\(sample.json)}")
                if backend == .postgreSQL && sample.holdsNUL {
                    #expect(created.status == 422, "\(label): \(created.text.prefix(300))")
                    let problem = try created.json()
                    #expect(problem["field"] as? String == sample.field, "\(label): \(created.text.prefix(300))")
                    #expect((problem["detail"] as? String)?.contains("NUL") == true, "\(label): \(created.text.prefix(300))")
                    continue
                }
                #expect(created.status == 201, "\(label): \(created.text.prefix(300))")
                guard created.status == 201 else { continue }
                let record = try created.json()
                #expect(sample.check(record[sample.field]), "\(label): create answered \(String(describing: record[sample.field]).prefix(200))")
                let id = try #require(F.int(record["_id"]))

                let read = try await client.get("/samples/\(id)").json()
                #expect(sample.check(read[sample.field]), "\(label): read answered \(String(describing: read[sample.field]).prefix(200))")

                if let query = sample.query {
                    let listed = try await client.get("/samples?limit=1000&\(sample.field)=\(Self.queryEncoded(query))")
                    #expect(listed.status == 200, "\(label): \(listed.text.prefix(300))")
                    let data = (try listed.json()["data"] as? [[String: Any]]) ?? []
                    #expect(data.contains { F.int($0["_id"]) == id }, "\(label): the filter does not find the record")
                    #expect(data.allSatisfy { sample.check($0[sample.field]) }, "\(label): the filter finds other values")
                }

                let clone = try await client.post("/samples/\(id)/clone", nil)
                #expect(clone.status == 201, "\(label): \(clone.text.prefix(300))")
                let cloneID = try clone.cloneID()
                let copy = try await client.get("/samples/\(cloneID)").json()
                #expect(sample.check(copy[sample.field]), "\(label): the clone has \(String(describing: copy[sample.field]).prefix(200))")
                written += 2
            }
            // What the store holds, not just what it answers: every accepted case and its clone,
            // nothing of a refused one.
            #expect(try await service.count("Sample") == written)
            switch backend {
            case .sqlite:
                // The NUL string is 8 bytes long in the file, for the original and its clone.
                #expect(try await service.sql("SELECT count(*) FROM Sample WHERE length(CAST(s AS BLOB)) = 8 AND hex(s) = '6E756C007461696C';") == "2")
                // No negative zero in the file either.
                #expect(try await service.count("Sample", where: "d = 0 AND CAST(d AS TEXT) NOT LIKE '-%'") == 4)
            case .postgreSQL:
                // The stored float8 is +0, not -0 (text output keeps the sign).
                #expect(try await service.count("Sample", where: "d = 0 AND d::text = '0'") == 4)
            }
        }
    }

    @Test(
        "a unique text value holds at most 2000 bytes on both stores: create, PATCH, nested create and clone set refuse more with 422",
        arguments: StoreBackendKind.available)
    func uniqueTextLength(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            // Random hex does not compress: the index entry holds every byte.
            func text(_ count: Int) -> String {
                String((0..<(count / 32 + 1)).map { _ in UUID().uuidString.replacingOccurrences(of: "-", with: "") }.joined().prefix(count))
            }
            let longest = try await client.post("/tags", #"{"name":"\#(text(2000))"}"#)
            #expect(longest.status == 201, "\(longest.text.prefix(300))")
            let tagID = try #require(F.int(try longest.json()["_id"]))
            let memoBody = #"{"createDate":"\#(F.date)","tags":[{"name":"\#(text(2001))"}]}"#
            let attempts: [(method: String, path: String, body: String, field: String)] = [
                ("POST", "/tags", #"{"name":"\#(text(2001))"}"#, "name"),
                ("POST", "/tags", #"{"name":"\#(text(60_000))"}"#, "name"),
                ("PATCH", "/tags/\(tagID)", #"{"name":"\#(text(3000))"}"#, "name"),
                ("POST", "/memos", memoBody, "tags[0].name"),
                ("POST", "/tags/\(tagID)/clone", #"{"set":{"name":"\#(text(2704))"}}"#, "set.name"),
            ]
            let before = try await service.counts(["Tag", "Memo"])
            for attempt in attempts {
                let response = try await client.request(attempt.method, attempt.path, body: attempt.body)
                #expect(response.status == 422, "\(attempt.method) \(attempt.path): \(response.status) \(response.text.prefix(300))")
                let problem = (try? response.json()) ?? [:]
                #expect(F.errorFields(problem) == [attempt.field], "\(response.text.prefix(300))")
                #expect(response.text.contains("2000 bytes"), "names the limit: \(response.text.prefix(300))")
            }
            #expect(try await service.counts(["Tag", "Memo"]) == before, "nothing written")
            // A value under the limit on a non-unique attribute is not limited.
            #expect(try await client.post("/tags", #"{"name":"t2","color":"\#(text(60_000))"}"#).status == 201)
        }
    }

    @Test("values JSON or the store cannot carry are refused naming the field, and nothing is written", arguments: StoreBackendKind.available)
    func edgesRefused(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, modelText: Self.model) { service in
            let client = service.client
            let refusals: [(field: String, json: String, status: Int)] = [
                // JSON has no infinity or NaN: a number beyond a double's range is refused by the parser.
                ("d", "1e400", 400), ("d", "-1e400", 400), ("d", "NaN", 400), ("d", "Infinity", 400),
                ("i", "9223372036854775808", 422), ("i", "-9223372036854775809", 422), ("i", "1.5", 422),
                ("t", "\"10000-01-01T00:00:00.000Z\"", 422), ("t", "\"+10000-01-01T00:00:00.000Z\"", 422),
                ("t", "\"-0001-01-01T00:00:00.000Z\"", 422),
                ("s", "\"\\ud834\"", 400),
                ("bin", "\"not base64!\"", 422),
            ]
            for refusal in refusals {
                let answer = try await client.post("/samples", "{\"\(refusal.field)\":\(refusal.json)}")
                #expect(answer.status == refusal.status, "\(refusal.field) = \(refusal.json): \(answer.text.prefix(300))")
                if answer.status == 422 {
                    #expect(F.errorFields(try answer.json()).contains(refusal.field), "\(refusal.field) = \(refusal.json): \(answer.text.prefix(300))")
                }
            }
            #expect(try await service.count("Sample") == 0)
            // Non-finite numbers in a filter are refused too.
            for query in ["d=inf", "d=nan", "d=1e400"] {
                let answer = try await client.get("/samples?\(query)")
                #expect(answer.status == 422, "\(query): \(answer.text.prefix(300))")
            }
        }
    }
}
