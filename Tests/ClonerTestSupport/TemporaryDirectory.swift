import Foundation

/// A fresh folder under the system temporary directory, one per test: for store files, models,
/// configuration files and logs. Removed by `remove()` or, at the latest, when the last reference
/// goes away.
public final class TemporaryDirectory: Sendable {
    public let url: URL

    /// Throws when the folder cannot be made, naming it (a full or read-only temporary directory).
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("cloner-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { remove() }

    /// The path of `name` inside the folder (the file need not exist).
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` inside the folder and returns the file's path.
    public func write(_ text: String, to name: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
