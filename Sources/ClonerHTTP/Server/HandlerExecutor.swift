import Dispatch

/// Where a server's `async` handlers and streamed bodies run: threads of its own (a concurrent
/// dispatch queue), not the process's shared cooperative pool.
///
/// Why: the cooperative pool has one thread per core, and whatever else lives in the process —
/// an embedding application, a test runner running tests side by side — may block those threads
/// (a synchronous wait, a blocking socket read). A handler task queued behind them waits with
/// them: a streamed response stalls mid-body, an async answer never comes, and the client times
/// out although the server is idle. Seen under load: curl getting 50,000 of 1,000,000 streamed
/// bytes in 60 s. Dispatch adds threads to a queue whose threads block, so the server's work
/// keeps moving whatever the pool is doing.
final class HandlerExecutor: TaskExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label, attributes: .concurrent)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
