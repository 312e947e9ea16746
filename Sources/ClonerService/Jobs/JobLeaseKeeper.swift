import ClonerStore
import Foundation
import Logging
import Synchronization

/// This process's part in sharing one database with other replicas (docs/architecture.md#replicas): its replica
/// id, the lease under which it holds its async jobs and `Idempotency-Key` reservations, the
/// periodic renewal of that lease, and the scan that fails what dead replicas left behind.
///
/// Every third of the lease, on the housekeeping queue: one transaction renews every lease this
/// replica holds (one UPDATE per service table, whatever the number of jobs), then another marks
/// failed every job whose lease ran out and releases every reservation whose lease ran out. A job
/// whose replica died therefore reads `failed` within lease + a third of it, and never stays
/// `running`. The scan leaves this replica's own rows alone: it is alive, whatever the clock says.
/// Each time it also reads the cancels other replicas requested for this one's jobs
/// (`DELETE /jobs/{id}` answered elsewhere) and stops those jobs.
final class JobLeaseKeeper: Sendable {
    /// A fresh id per process: a restarted process is another replica, and what its previous
    /// life held is failed by the scan like any dead replica's.
    let replicaID = UUID().uuidString.lowercased()
    let lease: Duration
    private let store: IncrementalStore
    private let logger: Logger
    private let queue: DispatchQueue
    private let stopped = Atomic<Bool>(false)
    /// This process's jobs, stopped when another replica asks.
    private let jobs: JobRegistry
    /// What this replica could not write while its database was lost: keys to give back, jobs
    /// to record failed (with their error). Written first at each tick, before the renewal, so
    /// a claim or a job whose work has ended is not kept alive by this replica's own lease.
    private let unsettled = Mutex<(keys: Set<String>, failedJobs: [String: Data])>(([], [:]))
    /// The keys of `unsettled` a settling transaction has taken and not yet ended.
    private let settling = Mutex<Set<String>>([])

    init(store: IncrementalStore, lease: Duration, logger: Logger, queue: DispatchQueue, jobs: JobRegistry) {
        precondition(lease > .zero, "a lease must last some time")
        self.jobs = jobs
        self.store = store
        self.lease = lease
        self.logger = logger
        self.queue = queue
    }

    /// How often leases are renewed and expired ones scanned for.
    var interval: Duration { lease / 3 }

    /// Until when a lease taken or renewed at `now` holds.
    func expiry(from now: Date = Date()) -> Date {
        now.addingTimeInterval(Self.seconds(lease))
    }

    /// The error a job whose replica died reads: its clone rolled back with that replica's
    /// transaction (a clone commits together with its `succeeded` row), so nothing was written.
    static let interruptedError: Data = Data(
        Problem(
            code: Problem.Code("job_interrupted"), status: 500,
            detail: "the replica running this clone stopped before it finished; nothing of it was written"
        ).jsonBytes())

    /// Fails expired jobs and releases expired reservations; throws when the store does.
    func scan(now: Date = Date()) throws {
        let (jobs, reservations) = try store.write { context in
            try context.failExpiredLeases(error: Self.interruptedError, now: now, excludingOwner: replicaID)
        }
        if jobs + reservations > 0 {
            logger.warning(
                "failed clone jobs and released Idempotency-Key reservations whose replica's lease ran out",
                metadata: ["jobs": "\(jobs)", "reservations": "\(reservations)", "replica": "\(replicaID)"])
        }
    }

    /// Stops this replica's jobs another replica was asked to cancel. The request row goes with
    /// the job's `cancelled` row (`cancelJob`).
    func cancelRequestedJobs() throws {
        let requested = try store.read { try $0.requestedJobCancellations(owner: replicaID) }
        for id in requested where jobs.cancellation(id)?.cancel() == true {
            logger.info("cancelling a job at another replica's request", metadata: ["job": "\(id)"])
        }
    }

    /// Gives `key` back at the next tick: its operation ended without a database to say so.
    func releaseLater(key: String) {
        unsettled.withLock { _ = $0.keys.insert(key) }
    }

    /// Whether `key` waits to be given back, taking it off the list: its next request gives it
    /// back itself, in the transaction that claims it again (`putBack` if that fails).
    func takeUnreleased(key: String) -> UnreleasedKey {
        if settling.withLock({ $0.contains(key) }) { return .settling }
        return unsettled.withLock { $0.keys.remove(key) != nil } ? .taken : .none
    }

    /// What `takeUnreleased` found of a key.
    enum UnreleasedKey {
        /// Not waiting to be given back.
        case none
        /// Waiting, and now the caller's to give back.
        case taken
        /// Being given back by the lease tick's transaction right now: its claim is neither free
        /// nor running, so the caller answers "retry shortly".
        case settling
    }

    func putBack(key: String) {
        releaseLater(key: key)
    }

    /// Records job `id` failed with `error` at the next tick, unless its work committed after all.
    func failLater(job id: String, error: Data) {
        unsettled.withLock { $0.failedJobs[id] = error }
    }

    /// Writes what was left unsettled, in one transaction; kept for the next tick if it fails.
    func settle(now: Date = Date()) throws {
        let pending = unsettled.withLock { pending in
            defer { pending = ([], [:]) }
            return pending
        }
        guard !pending.keys.isEmpty || !pending.failedJobs.isEmpty else { return }
        settling.withLock { $0 = pending.keys }
        defer { settling.withLock { $0 = [] } }
        do {
            try store.write { context in
                for key in pending.keys { try context.releaseIdempotencyKey(key, owner: replicaID) }
                for (id, error) in pending.failedJobs { try context.failJob(id: id, error: error, now: now, releasingKey: true) }
            }
            logger.notice(
                "settled what the database's loss left open",
                metadata: ["keys": "\(pending.keys.count)", "jobs": "\(pending.failedJobs.count)", "replica": "\(replicaID)"])
        } catch {
            unsettled.withLock { unsettled in
                unsettled.keys.formUnion(pending.keys)
                unsettled.failedJobs.merge(pending.failedJobs) { kept, _ in kept }
            }
            throw error
        }
    }

    /// Extends every lease this replica holds.
    func renew() throws {
        _ = try store.write { context in
            try context.renewLeases(owner: replicaID, until: expiry())
        }
    }

    /// Renews and scans every `interval` until `stop()`.
    func start() {
        queue.asyncAfter(deadline: .now() + Self.seconds(interval)) { [weak self] in
            guard let self, !self.stopped.load(ordering: .acquiring) else { return }
            // Without a database every step fails alike; the store's own "database lost" and
            // "database back" lines say so once, instead of three lines a tick.
            guard self.attempt("settling what the database's loss left open", { try self.settle() }) else {
                self.start()
                return
            }
            _ = self.attempt("renewing job leases", { try self.renew() })
            _ = self.attempt("scanning for expired job leases", { try self.scan() })
            _ = self.attempt("reading requested job cancels", { try self.cancelRequestedJobs() })
            self.start()
        }
    }

    func stop() {
        stopped.store(true, ordering: .releasing)
    }

    /// One housekeeping step; false when the database could not be reached for it (not logged).
    private func attempt(_ what: String, _ step: () throws -> Void) -> Bool {
        do {
            try step()
            return true
        } catch StoreError.unavailable {
            return false
        } catch {
            logger.error("\(what) failed", metadata: ["error": "\(error)", "replica": "\(replicaID)"])
            return true
        }
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
