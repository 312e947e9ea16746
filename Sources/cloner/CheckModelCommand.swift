import ArgumentParser
import ClonerModel
import Foundation

/// `cloner check-model PATH`: validates a model file the way the service does at start-up, so a
/// model edit can be checked in CI or a runbook before it reaches a running service.
struct CheckModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-model",
        abstract: "Validate a data model file and list every problem found.",
        discussion: "Exits 0 when the model is valid, 1 when it has problems (each printed on its own line, naming entity and property).")

    @Argument(help: "Path of the model: a model file (JSON), or a Core Data .xcdatamodeld, .xcdatamodel or contents file.", completion: .file())
    var path: String

    @OptionGroup var rules: RuleKeyOptions

    func run() throws {
        let keys = try rules.keys()
        do {
            let model = try ModelLoader.load(contentsOf: URL(fileURLWithPath: path), keys: keys)
            let relationships = model.entities.reduce(0) { $0 + $1.relationships.count }
            print("\(path): valid — \(model.entities.count) entities, \(relationships) relationships, fingerprint \(model.fingerprint)")
        } catch {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            throw ExitCode(1)
        }
    }
}
