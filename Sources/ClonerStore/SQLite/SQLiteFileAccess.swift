#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Explains a database path this process may not use, in an operator's terms. SQLite reports a
/// folder it can't write as "unable to open database file", and a file it could only open
/// read-only as "not a database" once WAL needs its -shm file: both read like a damaged store
/// when the fix is a `chown`. The usual case is a container's non-root user given a bind-mounted
/// folder owned by root.
enum SQLiteFileAccess {
    /// A message naming the path, the effective uid and gid and the path's owner and mode, or nil
    /// when the effective user may read and write the file (if it exists) and create files in its
    /// folder (SQLite writes the -wal and -shm files beside the database). `faccessat` with
    /// `AT_EACCESS` asks the kernel, so ACLs and capabilities count as they do for the open.
    static func problem(databasePath: String) -> String? {
        let path = URL(fileURLWithPath: databasePath).standardizedFileURL.path
        let uid = geteuid()
        let gid = getegid()
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: path), faccessat(AT_FDCWD, path, R_OK | W_OK, AT_EACCESS) != 0 {
            return "permission denied: uid \(uid) (gid \(gid)) cannot read and write the database file \(path) "
                + "(\(ownership(path))); give uid \(uid) read and write access to it"
        }
        // The folder may not exist yet (the store creates it): the nearest one that does is
        // where a file would have to be created.
        var folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        while !fileManager.fileExists(atPath: folder.path) && folder.path != "/" {
            folder = folder.deletingLastPathComponent()
        }
        if faccessat(AT_FDCWD, folder.path, W_OK | X_OK, AT_EACCESS) != 0 {
            return "permission denied: uid \(uid) (gid \(gid)) cannot create files in the folder \(folder.path) "
                + "(\(ownership(folder.path))), where SQLite keeps the database and its -wal and -shm files; "
                + "give uid \(uid) write access to it (a bind-mounted folder: chown \(uid):\(gid) on the host)"
        }
        return nil
    }

    private static func ownership(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "cannot stat it: \(String(cString: strerror(errno)))" }
        return "owner uid \(info.st_uid), gid \(info.st_gid), mode \(String(info.st_mode & 0o7777, radix: 8))"
    }
}
