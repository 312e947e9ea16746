import ClonerHTTP
import ClonerServiceTestSupport
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

@testable import ClonerService

/// A synchronous operation's `Idempotency-Key` claim commits in a transaction of its own, and the
/// operation holds it in the next. Between the two the claim can vanish — a failover whose new
/// primary never received the claim's COMMIT, or a lease swept while the replica could not reach
/// the database — or pass to another request. The service's own claim and hold, on its own store;
/// the gap is made by the test, which the real request path gives no hook for.
@Suite("Service: an Idempotency-Key claim lost before its operation holds it")
struct IdempotencyClaimLossTests {
    typealias F = EndToEndFixture

    /// A note to clone, a fresh key, and the service's claim steps for the clone request a client
    /// retries with it.
    private static func cloneRequest(_ service: TestService, key prefix: String) async throws -> (noteID: Int, key: String, operation: IdempotentOperation) {
        let note = try await service.client.create("notes", F.richNote(name: "source", tag: "t"))
        let noteID = try #require(F.int(note["_id"]))
        let key = "\(prefix)-\(UUID().uuidString)"
        let application = service.application
        let request = HTTPRequest(method: .post, target: "/notes/\(noteID)/clone", body: Array(#"{"set":{"name":"copy"}}"#.utf8))
        let idempotency = Idempotency(store: application.store, metrics: application.metrics, logger: application.logger, leases: application.leases)
        return (noteID, key, IdempotentOperation(idempotency, request: request, key: key, fingerprint: Idempotency.fingerprint(request)))
    }

    @Test("a claim the database lost is taken again in the operation's transaction; a retry replays that answer", arguments: StoreBackendKind.available)
    func lostClaimIsTakenAgain(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let (noteID, key, operation) = try await Self.cloneRequest(service, key: "lost")
            let store = service.application.store
            #expect(try operation.claim() == nil, "the key is free: the operation may run")
            // The claim's row is gone, as after a failover that lost its COMMIT.
            let owner = service.application.leases.replicaID
            try store.write { try $0.releaseIdempotencyKey(key, owner: owner) }
            #expect(try store.read { try $0.peekIdempotencyKey(key, now: Date()) } == nil)

            let answer = HTTPResponse.json(Array(#"{"clone":{"id":4242}}"#.utf8), status: .created, headers: ["Location": "/notes/4242"])
            try store.write { context in
                try operation.hold(in: context)
                try operation.keep(answer, in: context)
            }
            let retry = try await service.client.post("/notes/\(noteID)/clone", #"{"set":{"name":"copy"}}"#, headers: [("Idempotency-Key", key)])
            #expect(retry.status == 201, "\(retry.text)")
            #expect(retry.header("Idempotent-Replayed") == "true")
            #expect(retry.header("Location") == "/notes/4242")
            #expect(try await service.count("Note") == 1, "the retry replayed and cloned nothing")
            #expect(service.log.text.contains("an Idempotency-Key claim was lost while its operation waited"))
        }
    }

    @Test("a claim another request took over: the operation does not run and answers 409 in_progress", arguments: StoreBackendKind.available)
    func claimTakenOverIsNotRun(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let (noteID, key, operation) = try await Self.cloneRequest(service, key: "taken")
            let store = service.application.store
            let now = Date()
            // Another replica's request holds the key now, its lease alive.
            let other = try store.write {
                try $0.reserveIdempotencyKey(
                    key, fingerprint: operation.fingerprint, owner: "another-replica", leaseExpiresAt: now.addingTimeInterval(60), now: now)
            }
            #expect(other == .reserved)

            var ran = false
            do {
                try store.write { context in
                    try operation.hold(in: context)
                    ran = true
                }
                Issue.record("the operation held a key another request holds")
            } catch let problem as Problem {
                #expect(problem.status == 409 && problem.code == .inProgress, "\(problem)")
                #expect(problem.response(requestID: "r").headers["Retry-After"] == "1")
            }
            #expect(!ran)
            #expect(
                try store.read { try $0.peekIdempotencyKey(key, now: Date()) } == .inProgress(fingerprint: operation.fingerprint), "the other's claim stands")
            let retry = try await service.client.post("/notes/\(noteID)/clone", #"{"set":{"name":"copy"}}"#, headers: [("Idempotency-Key", key)])
            #expect(retry.status == 409 && retry.header("Retry-After") == "1", "\(retry.text)")
            #expect(try await service.count("Note") == 1)
        }
    }
}
