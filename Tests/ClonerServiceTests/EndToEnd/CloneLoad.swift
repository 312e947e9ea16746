import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation

/// Clients cloning one note without pause, as an application would through a failover: each on a
/// thread of its own, each clone under an `Idempotency-Key` of its own that the client sends
/// again — after the answer's `Retry-After` — until the clone is acknowledged; and a reader
/// polling `/readyz` as a load balancer would. Everything they see is kept for the test to check.
///
/// `@unchecked Sendable`: what the threads record, and the stop flag, are read and written under
/// `lock`.
final class CloneLoad: @unchecked Sendable {
    /// A clone the service acknowledged (2xx): its key, the clone's `_id`, when the acknowledged
    /// attempt was sent and answered.
    struct Acknowledgment: Sendable {
        let key: String
        let cloneID: Int?
        let client: Int
        let sent: ContinuousClock.Instant
        let answered: ContinuousClock.Instant
        let status: Int
    }

    /// An answer other than 2xx: what a client must then cope with.
    struct Refusal: Sendable {
        let key: String
        let status: Int
        let code: String?
        let retryAfter: String?
        let answered: ContinuousClock.Instant
        let text: String
    }

    /// One `/readyz` answer.
    struct Readiness: Sendable {
        let status: Int
        let reason: String?
        let answered: ContinuousClock.Instant
    }

    let port: Int
    let noteID: Int
    let clients: Int
    private let lock = NSLock()
    private var stopping = false
    /// Set when `stop` gives up waiting: a client then leaves its key unacknowledged and ends.
    private var abandoned = false
    private var running = 0
    private var acknowledgments: [Acknowledgment] = []
    private var refusals: [Refusal] = []
    private var readiness: [Readiness] = []
    /// Requests that got no answer at all (the connection failed or closed early).
    private var transportFailures: [String] = []

    init(port: Int, noteID: Int, clients: Int) {
        self.port = port
        self.noteID = noteID
        self.clients = clients
    }

    var acknowledged: [Acknowledgment] { lock.withLock { acknowledgments } }
    var refused: [Refusal] { lock.withLock { refusals } }
    var readinessAnswers: [Readiness] { lock.withLock { readiness } }
    var failures: [String] { lock.withLock { transportFailures } }

    /// The first acknowledgment of an attempt sent after `instant`.
    func firstAcknowledgment(sentAfter instant: ContinuousClock.Instant) -> Acknowledgment? {
        acknowledged.filter { $0.sent > instant }.min { $0.answered < $1.answered }
    }

    func start() {
        lock.withLock { running = clients + 1 }
        for client in 0..<clients {
            Thread { [self] in
                cloneUntilStopped(client: client)
                lock.withLock { running -= 1 }
            }.start()
        }
        Thread { [self] in
            pollReadiness()
            lock.withLock { running -= 1 }
        }.start()
    }

    /// Asks every thread to stop and waits until they have: each client first sees its last key
    /// acknowledged, so that every clone the service made is one the test knows of. False if they
    /// are still running after `timeout`.
    func stop(timeout: Duration) -> Bool {
        lock.withLock { stopping = true }
        let deadline = ContinuousClock.now + timeout
        while lock.withLock({ running }) > 0 && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
        return lock.withLock {
            abandoned = running > 0
            return !abandoned
        }
    }

    private var isStopping: Bool { lock.withLock { stopping } }
    private var isAbandoned: Bool { lock.withLock { abandoned } }

    private func cloneUntilStopped(client index: Int) {
        let client = ServiceClient(port: port)
        while !isStopping {
            let key = "failover-\(index)-\(UUID().uuidString)"
            // The same key until acknowledged, however long the database is away; a key given up
            // could have made a clone the test would not count.
            var acknowledged = false
            while !acknowledged && !isAbandoned {
                let sent = ContinuousClock.now
                let response: ClientResponse
                do {
                    response = try client.requestNow("POST", "/notes/\(noteID)/clone", headers: [("Idempotency-Key", key)], body: "{}")
                } catch {
                    lock.withLock { transportFailures.append("\(error)") }
                    Thread.sleep(forTimeInterval: 0.5)
                    continue
                }
                acknowledged = record(response, key: key, client: index, sent: sent)
                if !acknowledged {
                    let pause = response.header("Retry-After").flatMap(Double.init) ?? 1
                    Thread.sleep(forTimeInterval: min(max(pause, 0.05), 5))
                }
            }
            // Paced, so the clients leave the loaded machine room for the database's own work.
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Keeps the answer; whether it acknowledged the clone.
    private func record(_ response: ClientResponse, key: String, client: Int, sent: ContinuousClock.Instant) -> Bool {
        let answered = ContinuousClock.now
        let object = try? response.json()
        if (200..<300).contains(response.status) {
            let cloneID = EndToEndFixture.int((object?["clone"] as? [String: Any])?["id"])
            let acknowledgment = Acknowledgment(
                key: key, cloneID: cloneID, client: client, sent: sent, answered: answered, status: response.status)
            lock.withLock { acknowledgments.append(acknowledgment) }
            return true
        }
        let refusal = Refusal(
            key: key, status: response.status, code: object?["code"] as? String, retryAfter: response.header("Retry-After"), answered: answered,
            text: response.text)
        lock.withLock { refusals.append(refusal) }
        return false
    }

    private func pollReadiness() {
        let client = ServiceClient(port: port)
        while !isStopping {
            if let response = try? client.requestNow("GET", "/readyz") {
                let reason = (try? response.json())?["reason"] as? String
                let answer = Readiness(status: response.status, reason: reason, answered: ContinuousClock.now)
                lock.withLock { readiness.append(answer) }
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }
}
