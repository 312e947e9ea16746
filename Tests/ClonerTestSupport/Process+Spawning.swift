import Foundation

extension Process {
    /// Held while a test thread starts a child, so that no two start at once (`ShortCommand`
    /// takes it too).
    package static let spawning = NSLock()

    /// Starts the process while no other thread of the test process is starting one.
    ///
    /// Foundation learns that a child exited from a socket pair whose one end the child inherits:
    /// the end of file comes once every process holding that end has closed it. It keeps the
    /// parent's other descriptors out of a child by closing, in the child, every descriptor open
    /// when it looked (`/proc/self/fd`); a socket pair another thread opens after that look and
    /// before the child is made is inherited as well. When that child is a server that lives for
    /// the rest of the run, the first child's exit is seen only when the server stops — as a
    /// `check-model` run was once seen to exit only after 60 s in a full parallel run. Starting
    /// children one at a time closes that window for every child started here.
    package func runAlone() throws {
        try Self.spawning.withLock { try run() }
    }
}

extension Pipe {
    /// A pipe that no child inherits unless it is handed to that child as its standard input,
    /// output or error: both descriptors close on exec, and the copy a child gets as 0, 1 or 2
    /// (made by `dup2`, which clears the flag) stays open. Another test's child started at the
    /// same moment then never holds the pipe open, and its reader sees the end of file when its
    /// own child exits.
    package static func forChild() -> Pipe {
        let pipe = Pipe()
        for descriptor in [pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor] {
            _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
        }
        return pipe
    }
}
