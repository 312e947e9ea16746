#if canImport(Glibc)
import Glibc
#endif
import ClonerConcurrency
import CEpoll
import Dispatch
import Foundation

/// Something registered on an event loop for readiness events of one descriptor.
protocol EventLoopHandler: AnyObject {
    func handleEvents(_ events: UInt32)
}

/// One thread running `epoll_wait` over many non-blocking descriptors.
///
/// Everything registered on a loop is touched only by that loop's thread, so connections need no
/// locks. Other threads reach the loop only through `execute(_:)`, which queues a closure and
/// wakes the loop through an eventfd. Timeouts come from `epoll_wait`'s timeout: every
/// `tickInterval` the loop calls `onTick`, which scans deadlines; no timer threads.
///
/// `@unchecked Sendable`: the only state touched from other threads is `inbox` and `threadID`
/// (`LockedValue`s) and the immutable descriptors; everything else is confined to the loop thread by
/// construction.
final class EventLoop: @unchecked Sendable {
    let index: Int
    private let epollFD: Int32
    private let wakeFD: Int32
    private let inbox = LockedValue<[@Sendable () -> Void]>([])
    private let exited = DispatchSemaphore(value: 0)

    // Loop-thread state.
    private var handlers: [UInt64: any EventLoopHandler] = [:]
    private var nextToken: UInt64 = 1
    private var stopRequested = false
    private var nextTick: UInt64 = 0
    /// Monotonic time of the current iteration, read once per wake-up.
    private(set) var now: UInt64 = MonotonicClock.now()
    var tickInterval: UInt64 = 250_000_000
    var onTick: (() -> Void)?
    /// Run at the end of every iteration, before the loop waits again (see
    /// `HTTPServer.Hooks.onLoopIterationEnd`).
    var onIterationEnd: (() -> Void)?
    /// Written once by the loop thread, read by others (`inEventLoop`): hence the lock.
    private let threadID = LockedValue<pthread_t?>(nil)

    private static let wakeToken: UInt64 = 0

    init(index: Int) throws(SocketError) {
        self.index = index
        // Both descriptors are held in locals until both exist: once every stored property is set,
        // a throwing init still runs `deinit`, which would close `epollFD` a second time — and by
        // then the number may belong to another connection.
        let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw SocketError("epoll_create1", errno: errno) }
        let wake = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wake >= 0 else {
            let code = errno
            close(epoll)
            throw SocketError("eventfd", errno: code)
        }
        epollFD = epoll
        wakeFD = wake
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(u64: Self.wakeToken))
        epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event)
    }

    deinit {
        close(wakeFD)
        close(epollFD)
    }

    /// True on the loop's own thread.
    var inEventLoop: Bool {
        guard let id = threadID.withLock({ $0 }) else { return false }
        return pthread_equal(id, pthread_self()) != 0
    }

    /// Starts the loop's thread.
    func start(name: String) {
        let thread = Thread { [self] in
            threadID.withLock { $0 = pthread_self() }
            run()
            exited.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Runs `task` on the loop thread soon; callable from any thread. Wakes the loop only when the
    /// inbox was empty, so a burst of completions costs one eventfd write.
    func execute(_ task: @escaping @Sendable () -> Void) {
        let wasEmpty = inbox.withLock { tasks in
            tasks.append(task)
            return tasks.count == 1
        }
        if wasEmpty {
            var one: UInt64 = 1
            _ = write(wakeFD, &one, 8)
        }
    }

    /// Asks the loop to return after the current iteration; `waitUntilStopped` joins it.
    func stop() {
        execute { [self] in stopRequested = true }
    }

    func waitUntilStopped() {
        exited.wait()
    }

    // MARK: Registration (loop thread only)

    func register(fd: Int32, events: UInt32, handler: any EventLoopHandler) -> UInt64 {
        let token = nextToken
        nextToken += 1
        handlers[token] = handler
        var event = epoll_event(events: events, data: epoll_data_t(u64: token))
        epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event)
        return token
    }

    func modify(fd: Int32, token: UInt64, events: UInt32) {
        var event = epoll_event(events: events, data: epoll_data_t(u64: token))
        epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, &event)
    }

    func unregister(fd: Int32, token: UInt64) {
        handlers[token] = nil
        epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, nil)
    }

    // MARK: Running

    private func run() {
        let capacity = 256
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: capacity)
        defer { events.deallocate() }
        nextTick = MonotonicClock.now() + tickInterval
        while !stopRequested {
            let timeout = Int32(clamping: (nextTick > now ? nextTick - now : 0) / 1_000_000 + 1)
            let count = epoll_wait(epollFD, events, Int32(capacity), timeout)
            now = MonotonicClock.now()
            if count > 0 {
                for index in 0..<Int(count) {
                    let token = events[index].data.u64
                    if token == Self.wakeToken {
                        var value: UInt64 = 0
                        _ = read(wakeFD, &value, 8)
                    } else if let handler = handlers[token] {
                        handler.handleEvents(events[index].events)
                    }
                }
            }
            runInbox()
            if now >= nextTick {
                onTick?()
                nextTick = now + tickInterval
            }
            onIterationEnd?()
        }
        runInbox()
        onIterationEnd?()
    }

    private func runInbox() {
        while true {
            let tasks = inbox.withLock { tasks -> [@Sendable () -> Void] in
                let taken = tasks
                tasks.removeAll(keepingCapacity: true)
                return taken
            }
            if tasks.isEmpty { return }
            for task in tasks { task() }
        }
    }
}
