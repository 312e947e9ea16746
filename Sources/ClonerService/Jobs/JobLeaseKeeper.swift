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
            do {
                try self.renew()
            } catch {
                self.logger.error("renewing job leases failed", metadata: ["error": "\(error)", "replica": "\(self.replicaID)"])
            }
            do {
                try self.scan()
            } catch {
                self.logger.error("scanning for expired job leases failed", metadata: ["error": "\(error)"])
            }
            do {
                try self.cancelRequestedJobs()
            } catch {
                self.logger.error("reading requested job cancels failed", metadata: ["error": "\(error)"])
            }
            self.start()
        }
    }

    func stop() {
        stopped.store(true, ordering: .releasing)
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
