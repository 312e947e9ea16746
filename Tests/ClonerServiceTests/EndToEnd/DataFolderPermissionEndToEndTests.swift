import ClonerTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A data folder the service's user may not write — a container's non-root user given a
/// bind-mounted folder owned by root — stops the start with a message that says it is a
/// permission problem and names the folder and the uid, not one that blames the database file.
@Suite("End to end: data folder permissions")
struct DataFolderPermissionEndToEndTests {
    @Test("serve on a data folder the user can't write: exit 1, 'permission denied' naming the folder and the uid, not 'not a SQLite database'")
    func unwritableDataFolder() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let data = directory.url.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: false)
        let model = directory.url.appendingPathComponent("model.json").path
        try FileManager.default.copyItem(atPath: ServiceProcess.sampleModelPath, toPath: model)
        // Root may write anywhere, so as root the service runs as uid 10001 (the image's user),
        // a stranger to the root-owned folder, from a copy of the binary it can reach wherever
        // the checkout lives; anyone else gets a folder read-only to its owner.
        let uid: UInt32
        var launcher: [String] = []
        var executable = ServiceProcess.executablePath
        if geteuid() == 0 {
            uid = 10001
            launcher = ["/usr/bin/setpriv", "--reuid=10001", "--regid=10001", "--clear-groups"]
            executable = directory.path("cloner")
            try FileManager.default.copyItem(atPath: ServiceProcess.executablePath, toPath: executable)
            chmod(executable, 0o755)
            chmod(directory.url.path, 0o755)
            chmod(data.path, 0o755)
            chmod(model, 0o644)
        } else {
            uid = geteuid()
            chmod(data.path, 0o555)
        }
        defer { chmod(data.path, 0o755) }

        let database = data.appendingPathComponent("cloner.sqlite").path
        let outcome = try await ServiceProcess.run(
            ["serve", "--port", "0", "--database", database, "--model", model], in: directory.url, launcher: launcher,
            executable: executable)

        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("permission denied"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("uid \(uid)"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("folder \(data.path)"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("not a SQLite database"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: database))
    }
}
