import Foundation

/// Files of the repository the tests use, found from this file's path (tests may run from any
/// directory).
package enum Repository {
    package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The sample model (config/model.json).
    package static let sampleModelPath = root.appendingPathComponent("config/model.json").path
}
