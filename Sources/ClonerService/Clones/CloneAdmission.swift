import ClonerClone
import ClonerConcurrency
import ClonerHTTP

/// Decides whether a clone request may join the queue: by time, not by count. A clone waits for
/// its turn (the engine's run queue) whenever the work ahead of it should be done within the
/// writer wait; it is refused (503 with a `Retry-After` computed from that work) only when the
/// wait would pass that deadline, or when the requests held would pass a memory bound.
///
/// The estimate is the clones ahead (running, waiting, or on their way to the queue) times the
/// engine's recent average run, divided by how many run side by side. It errs early when clones
/// run long (a slow clone pushes the average up) and is never trusted beyond the deadline: a job
/// admitted on a low estimate still runs when its turn comes.
final class CloneAdmission: Sendable {
    struct State: Sendable {
        var inFlight = 0
        var heldBytes = 0
    }

    /// A refusal, answered as a problem with its own `Retry-After`.
    struct Refusal: Error, HTTPResponseError {
        let problem: Problem
        let retryAfterSeconds: Int

        func response(for request: HTTPRequest) -> HTTPResponse {
            var response = problem.response(requestID: request.id)
            response.headers.set("Retry-After", String(retryAfterSeconds))
            return response
        }
    }

    /// The request bodies (and so, roughly, the plans) clones in flight may hold together.
    static let maximumHeldBytes = 256 << 20

    let engine: CloneEngine
    /// How long a clone may be expected to wait for its turn: the store's writer wait.
    let deadline: Duration
    /// Clones in flight at most, whatever their estimate: a bound on the memory of the queue.
    let maximumInFlight: Int
    private let state = LockedValue(State())

    init(engine: CloneEngine, deadline: Duration, maximumInFlight: Int) {
        precondition(maximumInFlight > 0, "maxQueuedClones must be positive, got \(maximumInFlight)")
        self.engine = engine
        self.deadline = deadline
        self.maximumInFlight = maximumInFlight
    }

    /// How long a clone arriving now should wait for its turn.
    func estimatedWait(inFlight: Int) -> Duration {
        let load = engine.runQueue.load
        let ahead = max(inFlight, load.running + load.waiting)
        return load.averageRun * Double(ahead) / Double(engine.parallelism)
    }

    /// Admits a clone holding `bytes` of request, or throws the refusal. Each admission is given
    /// back with `release(bytes:)` once its clone has finished (or was never started).
    func admit(bytes: Int) throws(Refusal) {
        let outcome = state.withLock { state -> Result<Void, Refusal> in
            if state.inFlight >= maximumInFlight || (state.inFlight > 0 && state.heldBytes + bytes > Self.maximumHeldBytes) {
                let wait = estimatedWait(inFlight: state.inFlight)
                return .failure(
                    Refusal(
                        problem: Problem(
                            code: .serviceUnavailable,
                            detail:
                                "\(state.inFlight) clones are queued or running, holding \(state.heldBytes >> 20) MiB of requests (the limits are \(maximumInFlight) clones, maxQueuedClones, and \(Self.maximumHeldBytes >> 20) MiB); retry later"
                        ),
                        retryAfterSeconds: Self.seconds(wait)))
            }
            let wait = estimatedWait(inFlight: state.inFlight)
            if wait > deadline {
                return .failure(
                    Refusal(
                        problem: Problem(
                            code: .serviceUnavailable,
                            detail:
                                "the clones ahead would take about \(Self.seconds(wait)) s, past the writer wait of \(Self.seconds(deadline)) s; retry later"),
                        retryAfterSeconds: Self.seconds(wait - deadline)))
            }
            state.inFlight += 1
            state.heldBytes += bytes
            return .success(())
        }
        try outcome.get()
    }

    func release(bytes: Int) {
        state.withLock { state in
            precondition(state.inFlight > 0, "a clone admission released twice")
            state.inFlight -= 1
            state.heldBytes -= bytes
        }
    }

    var inFlight: Int { state.withLock { $0.inFlight } }

    /// Whole seconds, rounded up, at least one: what `Retry-After` carries (RFC 9110 §10.2.3).
    static func seconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) + (attoseconds > 0 ? 1 : 0))
    }
}
