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

    @Option(
        name: .customLong("rule-key"), parsing: .upToNextOption,
        help: "Rename a clone-rule userInfo key, as NAME=KEY (names: exclude, rebuild, followParent, withoutParent, clone).")
    var ruleKeys: [String] = []

    func run() throws {
        let keys = try CloneRuleKeys(overrides: ruleKeys)
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

extension CloneRuleKeys {
    /// Applies `NAME=KEY` overrides from the command line or configuration.
    init(overrides: [String]) throws {
        self = .moCloner
        for entry in overrides {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[1].isEmpty else {
                throw ValidationError("--rule-key expects NAME=KEY, got \(entry)")
            }
            switch parts[0] {
            case "exclude": exclude = parts[1]
            case "rebuild": rebuild = parts[1]
            case "followParent": followParent = parts[1]
            case "withoutParent": withoutParent = parts[1]
            case "clone": clone = parts[1]
            default: throw ValidationError("--rule-key: unknown rule \(parts[0]) (exclude, rebuild, followParent, withoutParent, clone)")
            }
        }
    }
}
