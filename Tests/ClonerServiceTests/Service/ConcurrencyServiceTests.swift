import ClonerService
import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// A busy backend, with default settings: many clients cloning one template, clones while others
/// edit the objects the clones link, clones of different roots that link the same objects, and
/// replicas on one PostgreSQL database. Every request that can wait is served (2xx), the counts and
/// version steps are exact, and the source is unchanged.
@Suite("Service: concurrent clones on hot rows", .serialized)
struct ConcurrencyServiceTests {
    typealias F = EndToEndFixture

    /// A note owning items, a description and a memo linked to one tag; returns (note, tag).
    static func template(_ client: ServiceClient, name: String, tag: Int? = nil) async throws -> (note: Int, tag: Int) {
        let tags = tag.map { "[\($0)]" } ?? #"[{"name":"shared"}]"#
        let note = try await client.create(
            "notes",
            F.note(
                """
                "name":"\(name)","items":[{"name":"a","itemDatas":[{"value":1.5,"createDate":"\(F.date)"}]},{"name":"b"}],\
                "noteDescription":{"content":"about"},"memos":[{"text":"m","createDate":"\(F.date)","tags":\(tags)}]
                """))
        let noteID = try #require(F.int(note["_id"]))
        let memoID = try #require(F.ints(note["memos"])?.first)
        let memo = try await client.get("/memos/\(memoID)").json()
        return (noteID, try #require(F.ints(memo["tags"])?.first))
    }

    static func version(_ client: ServiceClient, _ path: String) async throws -> Int {
        try #require(F.int(try await client.get(path).json()["_version"]))
    }

    /// `clients` tasks each sending `each` requests one after another; the statuses, in no order.
    static func run(clients: Int, each: Int, _ send: @escaping @Sendable (Int, Int) async throws -> ClientResponse) async throws -> [Int: Int] {
        try await withThrowingTaskGroup(of: [Int].self) { group in
            for client in 0..<clients {
                group.addTask {
                    var statuses: [Int] = []
                    for round in 0..<each { statuses.append(try await send(client, round).status) }
                    return statuses
                }
            }
            var counts: [Int: Int] = [:]
            for try await statuses in group { for status in statuses { counts[status, default: 0] += 1 } }
            return counts
        }
    }

    @Test(
        "32 clients cloning one template: every clone is made, the shared tag steps once per clone, the source is unchanged",
        arguments: StoreBackendKind.available)
    func manyClientsOneTemplate(backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            let (note, tag) = try await Self.template(client, name: "template")
            let source = try await client.get("/notes/\(note)").body
            let tagVersion = try await Self.version(client, "/tags/\(tag)")

            let statuses = try await Self.run(clients: 32, each: 4) { _, _ in try await client.post("/notes/\(note)/clone", "{}") }
            #expect(statuses == [201: 128], "\(statuses)")
            #expect(try await service.count("Note") == 129)
            #expect(try await service.count("Item") == 2 * 129, "two items per note")
            #expect(try await Self.version(client, "/tags/\(tag)") == tagVersion + 128)
            #expect(try await client.get("/notes/\(note)").body == source, "the source reads as before")
        }
    }

    @Test(
        "clones while others rename the linked tag and create memos linking it: all served, every step counted",
        arguments: StoreBackendKind.available)
    func clonesDuringEditsOfLinkedObjects(backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            let (note, tag) = try await Self.template(client, name: "template")
            let tagVersion = try await Self.version(client, "/tags/\(tag)")

            async let clones = Self.run(clients: 16, each: 4) { _, _ in try await client.post("/notes/\(note)/clone", "{}") }
            async let renames = Self.run(clients: 3, each: 15) { writer, round in
                try await client.patch("/tags/\(tag)", #"{"name":"renamed \#(writer) \#(round)"}"#)
            }
            async let memos = Self.run(clients: 2, each: 15) { _, _ in
                try await client.post("/memos", #"{"text":"x","createDate":"\#(F.date)","tags":[\#(tag)]}"#)
            }
            let (cloned, renamed, created) = try await (clones, renames, memos)
            #expect(cloned == [201: 64], "\(cloned)")
            #expect(renamed == [200: 45], "\(renamed)")
            #expect(created == [201: 30], "\(created)")
            #expect(try await service.count("Note") == 65)
            #expect(try await Self.version(client, "/tags/\(tag)") == tagVersion + 64 + 45 + 30)
            let tagged = try await client.get("/tags/\(tag)").json()
            #expect(F.ints(tagged["memos"])?.count == 1 + 64 + 30)
        }
    }

    @Test(
        "clones of eight different notes that link the same tag, side by side: all served",
        arguments: StoreBackendKind.available)
    func differentRootsLinkingTheSameObjects(backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            let (first, tag) = try await Self.template(client, name: "n0")
            var notes = [first]
            for index in 1..<8 { notes.append(try await Self.template(client, name: "n\(index)", tag: tag).note) }
            let tagVersion = try await Self.version(client, "/tags/\(tag)")

            let roots = notes
            let statuses = try await Self.run(clients: 8, each: 6) { writer, _ in try await client.post("/notes/\(roots[writer])/clone", "{}") }
            #expect(statuses == [201: 48], "\(statuses)")
            #expect(try await service.count("Note") == 8 + 48)
            #expect(try await Self.version(client, "/tags/\(tag)") == tagVersion + 48)
        }
    }

    @Test(
        "three replicas on one PostgreSQL database cloning one template: all served, counts exact",
        .enabled(if: PostgreSQLTestCluster.isEnabled, Comment(rawValue: PostgreSQLTestCluster.skipReason)))
    func replicasOnOneTemplate() async throws {
        let uri = try PostgreSQLTestCluster.shared.createDatabase().uri(password: nil)
        let directories = try (0..<3).map { _ in try TemporaryDirectory() }
        defer { for directory in directories { directory.remove() } }
        var replicas: [TestService] = []
        for directory in directories {
            replicas.append(try await TestService.start(directory: directory.url, backend: .postgreSQL, sharedDatabase: uri))
        }
        let clients = replicas.map(\.client)
        let (note, tag) = try await Self.template(clients[0], name: "template")
        let source = try await clients[1].get("/notes/\(note)").body
        let tagVersion = try await Self.version(clients[2], "/tags/\(tag)")

        let statuses = try await Self.run(clients: 24, each: 4) { writer, _ in
            try await clients[writer % 3].post("/notes/\(note)/clone", "{}")
        }
        #expect(statuses == [201: 96], "\(statuses)")
        #expect(try await replicas[0].count("Note") == 97)
        #expect(try await Self.version(clients[1], "/tags/\(tag)") == tagVersion + 96)
        #expect(try await clients[2].get("/notes/\(note)").body == source)
        for replica in replicas { await replica.stop() }
    }
}
