import ClonerService
import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// The store transactions one clone request costs, counted by the store: each is a commit, and on
/// SQLite a turn at the single writer, so a request opens only those its semantics need. The
/// lease is long so that no renewal runs meanwhile; the job's end is awaited on `/metrics`, which
/// reads no table.
@Suite("Service: transactions of a clone request")
struct CloneTransactionsServiceTests {
    typealias F = EndToEndFixture

    /// The transactions `send` causes, up to the end of the clone it starts.
    static func transactions(_ service: TestService, clones: Double = 1, _ send: (ServiceClient, Int) async throws -> ClientResponse) async throws
        -> (reads: Int, writes: Int)
    {
        let note = try await service.client.create("notes", F.richNote(name: "source", tag: "shared"))
        let id = try #require(F.int(note["_id"]))
        let before = service.application.store.transactions.counts
        let response = try await send(service.client, id)
        #expect((200..<300).contains(response.status), "\(response.status) \(response.text)")
        #expect(try await service.client.metric("cloner_clones_total", labels: [#"result="succeeded""#], settlingAt: clones) == clones)
        #expect(try await service.client.metric("cloner_jobs_in_flight", settlingAt: 0) == 0)
        let after = service.application.store.transactions.counts
        return (after.reads - before.reads, after.writes - before.writes)
    }

    static let longLease = ["CLONER_JOB_LEASE_SECONDS": "3600"]

    @Test(
        "asynchronous with an Idempotency-Key: the key's claim and the job row in one write, then running, then the clone",
        arguments: StoreBackendKind.available)
    func asynchronousWithKey(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, environment: Self.longLease) { service in
            let counted = try await Self.transactions(service) { client, id in
                try await client.post("/notes/\(id)/clone", "{}", headers: [("Prefer", "respond-async"), ("Idempotency-Key", "async-key")])
            }
            // SQLite peeks at the key in a read first, so a retry never queues behind the clone.
            #expect(counted.reads == (backend == .sqlite ? 1 : 0), "\(counted)")
            #expect(counted.writes == 3, "claim + job row, running, clone: \(counted)")
        }
    }

    @Test("asynchronous without a key: the job row, running, the clone", arguments: StoreBackendKind.available)
    func asynchronous(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, environment: Self.longLease) { service in
            let counted = try await Self.transactions(service) { client, id in
                try await client.post("/notes/\(id)/clone", "{}", headers: [("Prefer", "respond-async")])
            }
            #expect(counted.reads == 0 && counted.writes == 3, "\(counted)")
        }
    }

    @Test(
        "synchronous with an Idempotency-Key: the claim in a write of its own (others see it while the clone runs), then the clone",
        arguments: StoreBackendKind.available)
    func synchronousWithKey(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, environment: Self.longLease) { service in
            let counted = try await Self.transactions(service) { client, id in
                try await client.post("/notes/\(id)/clone", "{}", headers: [("Idempotency-Key", "sync-key")])
            }
            #expect(counted.reads == (backend == .sqlite ? 1 : 0), "\(counted)")
            #expect(counted.writes == 2, "claim, clone: \(counted)")
        }
    }

    @Test("synchronous: the clone's one transaction", arguments: StoreBackendKind.available)
    func synchronous(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, environment: Self.longLease) { service in
            let counted = try await Self.transactions(service) { client, id in try await client.post("/notes/\(id)/clone", "{}") }
            #expect(counted.reads == 0 && counted.writes == 1, "\(counted)")
        }
    }
}
