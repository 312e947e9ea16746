import Foundation

extension Pipe {
    /// A pipe that no child inherits unless it is handed to that child as its standard output or
    /// error: both descriptors close on exec, and the copy a child gets as 1 or 2 (made by `dup2`,
    /// which clears the flag) stays open. Made under `ChildProcess.spawning`, so no child started
    /// between the pipe's creation and its flags inherits it: another test's child then never
    /// holds the pipe open, and its reader sees the end of file when its own child exits.
    package static func forChild() -> Pipe {
        ChildProcess.spawning.withLock {
            let pipe = Pipe()
            for descriptor in [pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor] {
                _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
            }
            return pipe
        }
    }
}
