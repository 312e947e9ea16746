import ClonerConcurrency

/// The clone jobs of one engine that may run at once, and those waiting for their turn, in
/// arrival order.
///
/// Why a queue of its own rather than a refusal past a count: a clone that can be served within
/// the writer wait should wait for its turn, not be refused. The waiting jobs are closures, not
/// parked threads; each is started on its own private queue when a running one finishes, so the
/// threads in use stay bounded by `maximumRunning` however many clients arrive at once.
///
/// It also keeps what admission needs to tell real overload from a queue that will drain in time:
/// how many jobs run and wait, and how long a job has been running lately.
public final class CloneRunQueue: Sendable {
    /// What admission reads.
    public struct Load: Sendable, Equatable {
        public var running: Int
        public var waiting: Int
        /// A moving average of how long recent jobs ran (their transaction, not their wait).
        public var averageRun: Duration
    }

    private struct State {
        var running = 0
        var waiting: [@Sendable () -> Void] = []
        /// Index of the first job in `waiting` not yet started (the array is compacted as it drains).
        var head = 0
        var averageRun: Duration = .zero
        var finished = 0
    }

    /// Jobs running at once.
    public let maximumRunning: Int
    /// The weight of the newest run in `averageRun`: recent enough to follow a change of load,
    /// smooth enough that one large clone does not swing admission.
    static let averageWeight = 0.2

    private let state = LockedValue(State())

    public init(maximumRunning: Int) {
        precondition(maximumRunning > 0, "a clone run queue runs at least one job")
        self.maximumRunning = maximumRunning
    }

    public var load: Load {
        state.withLock { Load(running: $0.running, waiting: $0.waiting.count - $0.head, averageRun: $0.averageRun) }
    }

    /// Runs `launch` now if a place is free, else when one is.
    func enqueue(_ launch: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.running < maximumRunning {
                state.running += 1
                return true
            }
            state.waiting.append(launch)
            return false
        }
        if now { launch() }
    }

    /// A job finished after running for `ran`: its place goes to the job waiting longest.
    func finished(ran: Duration) {
        let next = state.withLock { state -> (@Sendable () -> Void)? in
            state.finished += 1
            state.averageRun =
                state.finished == 1
                ? ran
                : state.averageRun * (1 - Self.averageWeight) + ran * Self.averageWeight
            guard state.head < state.waiting.count else {
                state.running -= 1
                return nil
            }
            let launch = state.waiting[state.head]
            state.head += 1
            if state.head > 64 && state.head * 2 > state.waiting.count {
                state.waiting.removeFirst(state.head)
                state.head = 0
            }
            return launch
        }
        next?()
    }
}
