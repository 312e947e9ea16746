import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// Values a careless or hostile client can put in every path and query position — NUL,
/// percent-encoded bytes that are not UTF-8, numbers past 64 bits, values thousands of bytes
/// long — sent to the real binary on both stores. None may stop the process, and none is a
/// server error: a value that cannot name anything is the client's mistake (404, 400 or 422).
@Suite("End to end: hostile values in paths and queries")
struct HostileInputEndToEndTests {
    typealias F = EndToEndFixture

    /// The odd values put in each position.
    static let values: [String] = [
        "%00", "a%00b", "%FF", "%C3%28", "%ED%A0%80", "%F4%90%80%80", "%FE%FF%00",
        "99999999999999999999999999", "9223372036854775807", "9223372036854775808", "-9223372036854775809", "-1", "0",
        "1e309", "NaN", String(repeating: "7", count: 3000), String(repeating: "x", count: 6000),
        String(repeating: "%E2%82%AC", count: 600),
    ]

    /// Request targets with `{v}` replaced by each value; `{note}` is an existing note.
    static let templates: [(method: String, target: String)] = [
        ("GET", "/jobs/{v}"), ("HEAD", "/jobs/{v}"), ("GET", "http://x/jobs/{v}"), ("GET", "//jobs//x{v}y"), ("GET", "jobs/a{v}b"),
        ("GET", "/{v}"), ("HEAD", "/{v}"), ("POST", "/{v}"), ("GET", "/{v}/1"), ("DELETE", "/{v}/1"), ("POST", "/{v}/1/clone"),
        ("GET", "/notes/{v}"), ("HEAD", "/notes/{v}"), ("PATCH", "/notes/{v}"), ("DELETE", "/notes/{v}"), ("POST", "/notes/{v}/clone"),
        ("GET", "/notes?limit={v}"), ("GET", "/notes?after={v}"), ("GET", "/notes?cursor={v}"), ("GET", "/notes?order={v}"),
        ("GET", "/notes?order=-{v}"), ("GET", "/notes?{v}=1"), ("GET", "/notes?name={v}"), ("GET", "/notes?id={v}"),
        ("GET", "/notes?index={v}"), ("GET", "/notes?createDate={v}"), ("GET", "/notes?isPinned={v}"),
        ("GET", "/notes?settings={v}"), ("GET", "/notes?data={v}"), ("GET", "/notes?template={v}"),
        ("GET", "/notes?order=name&cursor={v}"), ("GET", "/tags?name={v}"), ("GET", "/itemdata?value={v}"),
        ("GET", "/notes/{note}?{v}={v}"), ("GET", "/model?{v}"), ("GET", "/metrics?{v}"), ("GET", "/openapi.yaml?{v}"),
        ("GET", "/healthz?{v}"), ("POST", "/notes/{note}/clone?{v}"),
    ]

    /// Orders of thousands of keys (as many as a request line holds), repeated or not, with and
    /// without a cursor.
    static let longOrders: [String] = [
        "/notes?order=" + Array(repeating: "id", count: 2700).joined(separator: ","),
        "/notes?order=" + Array(repeating: "-index", count: 1100).joined(separator: ","),
        "/notes?limit=1&order="
            + ["name", "index", "createDate", "isPinned", "id", "-_id", "template", "data", "settings"]
            .flatMap { Array(repeating: $0, count: 40) }.joined(separator: ","),
    ]

    /// Cursors in the service's own form whose values do not fit the order's keys: text for an
    /// integer, a blob for a date, NUL in text, a uuid that is not one, a number past a date's range.
    static let forgedCursors: [(order: String, keys: String)] = [
        ("index", #"["x",1]"#), ("createDate", #"[{"b":"AAAA"},1]"#), ("name", #"["a\u0000b",1]"#), ("id", #"["not-a-uuid",1]"#),
        ("createDate", #"[9223372036854775807,1]"#), ("isPinned", #"[{"r":1.5},1]"#), ("settings", #"[7,1]"#), ("data", #"["AAAA",1]"#),
        ("template", #"["x",1]"#), ("index", #"[1,"x"]"#), ("name", "[\"" + String(repeating: "y", count: 4000) + "\",1]"),
    ]

    static func cursor(order: String, keys: String) -> String {
        Data("{\"o\":\"\(order)\",\"k\":\(keys)}".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// JSON bodies holding the odd values where a client writes text: string attributes, a
    /// unique one, json keys and values, clone `set` and `exclude`, and an Idempotency-Key.
    static func bodies(note: Int) -> [(method: String, target: String, body: String)] {
        // Random hex does not compress: a unique index must hold it as it is.
        let incompressible = (0..<300).map { _ in UUID().uuidString }.joined()
        let texts = ["\\u0000", "a\\u0000b", "\\ud800", String(repeating: "x", count: 100_000), incompressible]
        var bodies: [(String, String, String)] = []
        for text in texts {
            bodies.append(("POST", "/notes", F.note("\"name\":\"\(text)\"")))
            bodies.append(("POST", "/tags", "{\"name\":\"\(text)\"}"))
            bodies.append(("POST", "/notes", F.note("\"settings\":{\"\(text)\":\"\(text)\"}")))
            bodies.append(("PATCH", "/notes/\(note)", "{\"name\":\"\(text)\"}"))
            bodies.append(("POST", "/notes/\(note)/clone", "{\"set\":{\"name\":\"\(text)\"}}"))
            bodies.append(("POST", "/notes/\(note)/clone", "{\"exclude\":[\"\(text)\"]}"))
            bodies.append(("POST", "/notes/\(note)/clone", "{\"set\":{\"\(text)\":1}}"))
        }
        return bodies
    }

    @Test("an id that cannot be a job id is a 404, however it is written", arguments: StoreBackendKind.available)
    func impossibleJobIDs(_ backend: StoreBackendKind) async throws {
        try await ServiceProcess.withService(backend: backend) { service in
            let client = service.client
            for (method, target) in [
                ("GET", "/jobs/%00"), ("HEAD", "/jobs/%00"), ("GET", "http://x/jobs/%00"), ("GET", "//jobs//x%00y"),
                ("GET", "/jobs/a%00b"), ("GET", "jobs/a%00b"), ("GET", "/jobs/%FF"), ("GET", "/jobs/" + F.uuid().uppercased()),
                ("GET", "/jobs/" + String(repeating: "a", count: 5000)),
            ] {
                let response = try await client.request(method, target)
                #expect(response.status == 404, "\(method) \(target.prefix(60)): \(response.status) \(response.text)")
                #expect(service.isRunning, "\(method) \(target.prefix(60)) stopped the service")
                guard service.isRunning else { return }
            }
            #expect(try await client.get("/jobs/" + F.uuid()).status == 404)
            #expect(try await client.get("/healthz").status == 200)
        }
    }

    @Test(
        "every route survives NUL, bytes that are not UTF-8, huge numbers and overlong values; none is a 5xx",
        arguments: StoreBackendKind.available)
    func probeEveryPosition(_ backend: StoreBackendKind) async throws {
        try await ServiceProcess.withService(backend: backend) { service in
            let client = service.client
            let note = try await client.createdID("notes", F.note(#""name":"probe""#))
            var failures: [String] = []
            func check(_ method: String, _ target: String, body: String? = nil, headers: [(name: String, value: String)] = []) async {
                let shown = "\(method) \(target.prefix(80))\(target.count > 80 ? "…" : "")\(body.map { " " + $0.prefix(60) } ?? "")"
                do {
                    let response = try await client.request(method, target, headers: headers, body: body)
                    if response.status >= 500 { failures.append("\(shown): \(response.status) \(response.text.prefix(200))") }
                } catch {
                    failures.append("\(shown): \(error)")
                }
                if !service.isRunning { failures.append("\(shown): the process stopped") }
            }
            for (method, template) in Self.templates {
                for value in Self.values {
                    let target = template.replacingOccurrences(of: "{note}", with: "\(note)").replacingOccurrences(of: "{v}", with: value)
                    await check(method, target, body: method == "PATCH" || method == "POST" ? "{}" : nil)
                    guard service.isRunning else { break }
                }
                guard service.isRunning else { break }
            }
            if service.isRunning {
                _ = try await client.create("notes", F.note(#""name":"second""#))
                for target in Self.longOrders {
                    await check("GET", target)
                    // Follow the cursor of a page, where the keyset predicate grows with the keys.
                    if let next = try? await client.get(target).json()["next"] as? String { await check("GET", next) }
                }
            }
            if service.isRunning {
                for forged in Self.forgedCursors {
                    await check("GET", "/notes?order=\(forged.order)&cursor=\(Self.cursor(order: forged.order, keys: forged.keys))")
                }
            }
            if service.isRunning {
                for (method, target, body) in Self.bodies(note: note) {
                    await check(method, target, body: body)
                    guard service.isRunning else { break }
                }
            }
            if service.isRunning {
                // A header value may carry bytes past ASCII (obs-text, RFC 9110 §5.5).
                for key in ["\u{FF}\u{FE}", String(repeating: "k", count: 7000), "%00"] {
                    await check("POST", "/notes/\(note)/clone", body: "{}", headers: [("Idempotency-Key", key)])
                    await check("GET", "/notes/\(note)", headers: [("If-None-Match", key)])
                }
            }
            #expect(service.isRunning, "the service stopped: \(service.stderr.text.suffix(2000))")
            #expect(failures.isEmpty, "\(failures.count) answers were server errors or lost the process:\n\(failures.prefix(40).joined(separator: "\n"))")
            #expect(try await client.get("/healthz").status == 200)
        }
    }
}
