import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// A list's cursor is a position in its order (docs/architecture.md#routes): `next` keeps working when the record
/// it was taken from is deleted, and paging while others write neither repeats nor skips a record
/// that stayed.
@Suite("Service: list cursors")
struct ListCursorServiceTests {
    typealias F = EndToEndFixture

    /// A note's sort key under `order=name,-createDate`: name ascending with no name first (as
    /// SQLite sorts NULL), then createDate descending, then `_id` ascending.
    struct Key: Comparable {
        let name: String?
        let date: String
        let id: Int

        static func < (a: Key, b: Key) -> Bool {
            if a.name != b.name {
                guard let left = a.name else { return true }
                guard let right = b.name else { return false }
                return Array(left.utf8).lexicographicallyPrecedes(Array(right.utf8))
            }
            if a.date != b.date { return a.date > b.date }
            return a.id < b.id
        }
    }

    static func date(_ minute: Int) -> String { String(format: "2026-01-01T10:%02d:00.000Z", minute) }

    static func noteBody(name: String?, minute: Int) -> String {
        "{\"id\":\"\(F.uuid())\",\"createDate\":\"\(date(minute))\",\"name\":\(name.map { "\"\($0)\"" } ?? "null")}"
    }

    static func key(_ record: [String: Any]) -> Key {
        Key(name: record["name"] as? String, date: record["createDate"] as? String ?? "", id: F.int(record["_id"]) ?? 0)
    }

    @Test(
        "paging by name,-createDate while the cursor's record is deleted and others are inserted: no repeats, no skips", arguments: StoreBackendKind.available)
    func pagingWhileWriting(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            var generator = SplitMix(seed: 14)
            let names: [String?] = [nil, "alpha", "beta", "beta", "gamma", "Ω", "𝄞"]
            var initial: [Int: Key] = [:]
            for index in 0..<60 {
                let name = names[Int(generator.next() % UInt64(names.count))]
                let note = try await client.create("notes", Self.noteBody(name: name, minute: Int(generator.next() % 6)))
                initial[F.int(note["_id"])!] = Self.key(note)
                _ = index
            }

            var deleted: Set<Int> = []
            var seen: [Key] = []
            var path: String? = "/notes?order=name,-createDate&limit=4"
            var pages = 0
            while let current = path, pages < 100 {
                let page = try await client.get(current)
                #expect(page.status == 200, "\(current) → \(page.text.prefix(300))")
                guard page.status == 200 else { break }
                let body = try page.json()
                let data = (body["data"] as? [[String: Any]]) ?? []
                seen += data.map(Self.key)
                path = body["next"] as? String
                pages += 1
                guard let last = data.last, path != nil else { continue }
                // The cursor's own record goes away, and so does one not yet listed; new records
                // land before and after the cursor.
                let lastID = F.int(last["_id"])!
                #expect(try await client.delete("/notes/\(lastID)").status == 204)
                deleted.insert(lastID)
                let seenIDs = Set(seen.map(\.id))
                if let victim = initial.keys.sorted().first(where: { !seenIDs.contains($0) && !deleted.contains($0) && $0 % 3 == 0 }) {
                    #expect(try await client.delete("/notes/\(victim)").status == 204)
                    deleted.insert(victim)
                }
                for _ in 0..<2 {
                    let name = names[Int(generator.next() % UInt64(names.count))]
                    _ = try await client.create("notes", Self.noteBody(name: name, minute: Int(generator.next() % 6)))
                }
            }
            #expect(path == nil, "the walk ended")
            let seenIDs = seen.map(\.id)
            #expect(Set(seenIDs).count == seenIDs.count, "a record was listed twice")
            let stayed = Set(initial.keys).subtracting(deleted)
            #expect(stayed.isSubset(of: Set(seenIDs)), "skipped records that stayed: \(stayed.subtracting(Set(seenIDs)).sorted())")
            #expect(seen == seen.sorted(), "the pages follow the order")
            #expect(deleted.count > 15)
        }
    }

    @Test(
        "order names each key once and at most 8 (422 naming order); 8 keys page through every record once",
        arguments: StoreBackendKind.available)
    func orderKeysAreFewAndDistinct(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            for (index, name) in ["b", "a", "b", "c", "a", "b", "a"].enumerated() {
                let pinned = index % 2 == 0 ? "true" : "false"
                let shareLink = index % 3 == 0 ? "null" : "\"s\(index % 2)\""
                _ = try await client.create("notes", F.note(#""name":"\#(name)","index":\#(index % 3),"isPinned":\#(pinned),"shareLink":\#(shareLink)"#))
            }
            for order in ["name,-name", "index,name,index", "-_id,_id", "name,index,createDate,isPinned,shareLink,template,id,data,settings"] {
                let response = try await client.get("/notes?order=\(order)")
                #expect(response.status == 422, "order=\(order): \(response.status) \(response.text)")
                #expect(F.errorFields((try? response.json()) ?? [:]).contains("order"), "\(response.text)")
            }
            let order = "name,-index,createDate,isPinned,-shareLink,template,id,-_id"
            let whole = try await client.get("/notes?order=\(order)").json()
            let expected = try #require(whole["data"] as? [[String: Any]]).compactMap { F.int($0["_id"]) }
            #expect(expected.count == 7)
            var seen: [Int] = []
            var next: String? = "/notes?order=\(order)&limit=2"
            while let page = next, seen.count <= 7 {
                let response = try await client.get(page)
                #expect(response.status == 200, "\(page): \(response.text)")
                let body = try response.json()
                seen += ((body["data"] as? [[String: Any]]) ?? []).compactMap { F.int($0["_id"]) }
                next = body["next"] as? String
            }
            #expect(seen == expected, "pages of 2 under \(order)")
        }
    }

    @Test(
        "next carries an opaque cursor; it keeps its order and filters, and a forged or foreign cursor is a 422 naming it",
        arguments: StoreBackendKind.available)
    func cursorForm(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            for index in 0..<5 { _ = try await client.create("tags", "{\"name\":\"tag \(index)\",\"color\":\"red\"}") }
            let first = try await client.get("/tags?order=-name&limit=2&color=red").json()
            let next = try #require(first["next"] as? String)
            #expect(next.hasPrefix("/tags?"))
            #expect(next.contains("order=-name") && next.contains("limit=2") && next.contains("color=red") && next.contains("cursor="))
            #expect(!next.contains("after="))
            let second = try await client.get(next).json()
            #expect((second["data"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["tag 2", "tag 1"])

            // Deleting every record of the first pages does not break the link.
            for record in (first["data"] as? [[String: Any]]) ?? [] { _ = try await client.delete("/tags/\(F.int(record["_id"])!)") }
            for record in (second["data"] as? [[String: Any]]) ?? [] { _ = try await client.delete("/tags/\(F.int(record["_id"])!)") }
            let third = try await client.get(try #require(second["next"] as? String))
            #expect(third.status == 200, "\(third.text)")
            #expect((try third.json()["data"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["tag 0"])

            // The cursor belongs to its order: another order, or a forged value, is refused.
            let cursor = String(try #require(next.split(separator: "&").first { $0.hasPrefix("cursor=") }).dropFirst("cursor=".count))
            for query in ["cursor=\(cursor)", "order=name&cursor=\(cursor)", "cursor=%21%21", "cursor=eyJ4IjoxfQ", "order=-name&cursor=\(cursor)&after=3"] {
                let answer = try await client.get("/tags?\(query)")
                #expect(answer.status == 422, "\(query) → \(answer.text)")
                #expect(F.errorFields(try answer.json()).contains(query.contains("after=") ? "after" : "cursor"), "\(query) → \(answer.text)")
            }

            // `after=<_id>` still works as documented.
            let all = try await client.get("/tags").json()
            let ids = ((all["data"] as? [[String: Any]]) ?? []).compactMap { F.int($0["_id"]) }
            let after = try await client.get("/tags?after=\(ids[0])").json()
            #expect(((after["data"] as? [[String: Any]]) ?? []).compactMap { F.int($0["_id"]) } == Array(ids.dropFirst()))
        }
    }
}

/// A small deterministic generator (SplitMix64), so a failing walk can be replayed.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
