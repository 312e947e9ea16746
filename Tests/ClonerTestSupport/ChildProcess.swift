import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A child process of a test, started with `posix_spawn` itself rather than Foundation's
/// `Process`, whose `run()` can crash the whole test process on Linux (see `ShortCommand`, which
/// runs its commands through this type).
///
/// The child's standard input is /dev/null; its output and errors go to the descriptors given
/// (which the caller keeps and closes), or to /dev/null. Its signal mask is emptied and every signal set back to
/// its default action, as a shell would start it: a test thread (a Dispatch worker, say) may
/// block or ignore signals that the child must receive, such as the SIGTERM a drain test sends.
/// It keeps no other descriptor of the test process (glibc's `closefrom` file action, as
/// Foundation's `Process` closes them too).
///
/// `@unchecked Sendable`: the one mutable state, the wait status once the child is reaped, is
/// read and written under `lock`.
package final class ChildProcess: @unchecked Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Held while a child starts and while a pipe for one is made and flagged close-on-exec
    /// (`Pipe.forChild`), so that no child inherits another's pipe.
    package static let spawning = NSLock()

    package let processIdentifier: pid_t
    private let lock = NSLock()
    private var waitStatus: Int32?

    /// Starts `executable` (a path) with `arguments`, in `directory` when given (else the test
    /// process's), with `environment` when given (else the test process's). With `ownProcessGroup`
    /// the child leads a process group of its own: a daemon's whole tree (a pg_autoctl keeper and
    /// its postmaster) can then be killed at once by the group's number, and a Ctrl-C of the test
    /// run, sent to the terminal's foreground group, does not reach it.
    package init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        standardOutput: Int32? = nil, standardError: Int32? = nil, ownProcessGroup: Bool = false
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let directory {
            guard let changeDirectory = Self.addChangeDirectory else {
                throw Failure(description: "this C library cannot start a child in another directory")
            }
            guard changeDirectory(&actions, directory) == 0 else { throw Failure(description: "chdir action \(directory): errno \(errno)") }
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        // dup2 clears close-on-exec on the copy, so the child keeps exactly these.
        for (given, target) in [(standardOutput, Int32(1)), (standardError, Int32(2))] {
            if let given {
                posix_spawn_file_actions_adddup2(&actions, given, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            }
        }
        // Nothing else: a descriptor another thread holds open at this moment (a file it is
        // writing, such as a copy of the binary a test is about to run) would otherwise stay open
        // in this child, and running that file then fails with "Text file busy" for as long as
        // the child lives.
        if let closeFrom = Self.addCloseFrom {
            guard closeFrom(&actions, 3) == 0 else { throw Failure(description: "closefrom action: errno \(errno)") }
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for entry in envp ?? [] { free(entry) } }

        var pid = pid_t()
        let spawned = Self.spawning.withLock {
            if let envp {
                return posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            }
            return posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        }
        guard spawned == 0 else { throw Failure(description: "posix_spawn \(executable): errno \(spawned)") }
        processIdentifier = pid
    }

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29 on) and `…_addclosefrom_np` (2.34 on),
    /// which the Glibc module does not declare. glibc's RTLD_DEFAULT is the null handle: every
    /// object loaded, in load order.
    private typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let addChangeDirectory: ChangeDirectory? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else { return nil }
        return unsafeBitCast(symbol, to: ChangeDirectory.self)
    }()
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addCloseFrom: CloseFrom? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: CloseFrom.self)
    }()

    /// Whether the child still runs; reaps it once it has exited.
    package var isRunning: Bool { exitStatus() == nil }

    /// As Foundation's `Process` says it: the exit code, or the number of the signal that ended
    /// the child (`terminatedBySignal`). Only meaningful once `isRunning` is false.
    package var terminationStatus: Int32 {
        guard let status = exitStatus() else { return -1 }
        // The wait status as <sys/wait.h> encodes it: the low seven bits hold a signal, if any.
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : signal
    }

    package var terminatedBySignal: Bool { exitStatus().map { $0 & 0x7f != 0 } ?? false }

    /// Sends `signal` to the child while it runs (never to a reused process number once reaped).
    package func signal(_ number: Int32) {
        lock.withLock {
            if waitStatus == nil { Glibc.kill(processIdentifier, number) }
        }
    }

    /// Waits by polling (every 2 ms: a short command's end is waited for after its output ended,
    /// when it is about to exit), bounded; whether the child has exited. Never a blocking
    /// `waitpid`: the child is reaped only under the lock that `signal` takes, so a signal never
    /// reaches a process that has taken over a reaped child's number.
    package func waitForExit(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while isRunning && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.002) }
        return !isRunning
    }

    /// Kills the child if it still runs and reaps it.
    package func killAndReap() {
        signal(SIGKILL)
        _ = waitForExit(timeout: .seconds(10))
    }

    private func exitStatus() -> Int32? {
        lock.withLock {
            if waitStatus == nil {
                var status: Int32 = 0
                var reaped = waitpid(processIdentifier, &status, WNOHANG)
                while reaped < 0 && errno == EINTR { reaped = waitpid(processIdentifier, &status, WNOHANG) }
                if reaped == processIdentifier {
                    waitStatus = status
                } else if reaped < 0 && errno == ECHILD {
                    // Reaped elsewhere, its status unknown: said as exit status 255.
                    waitStatus = 0xff00
                }
            }
            return waitStatus
        }
    }

    deinit {
        if exitStatus() == nil {
            Glibc.kill(processIdentifier, SIGKILL)
            var status: Int32 = 0
            while waitpid(processIdentifier, &status, 0) < 0 && errno == EINTR {}
        }
    }
}
