import ArgumentParser
import ClonerModel

/// The `--rule-key` option of the commands that load a model file (`check-model`,
/// `import-model`): a model whose clone rules sit under other user-info keys than MOCloner's is
/// checked and converted as the service would load it with the same renames.
struct RuleKeyOptions: ParsableArguments {
    @Option(
        name: .customLong("rule-key"), parsing: .upToNextOption,
        help: "Rename a clone-rule userInfo key, as NAME=KEY (names: exclude, rebuild, followParent, withoutParent, clone).")
    var ruleKeys: [String] = []

    /// MOCloner's keys with each `NAME=KEY` applied; a malformed entry or an unknown name is a
    /// usage error naming the entry.
    func keys() throws -> CloneRuleKeys {
        var keys = CloneRuleKeys.moCloner
        for entry in ruleKeys {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[1].isEmpty else {
                throw ValidationError("--rule-key expects NAME=KEY, got \(entry)")
            }
            switch parts[0] {
            case "exclude": keys.exclude = parts[1]
            case "rebuild": keys.rebuild = parts[1]
            case "followParent": keys.followParent = parts[1]
            case "withoutParent": keys.withoutParent = parts[1]
            case "clone": keys.clone = parts[1]
            default: throw ValidationError("--rule-key: unknown rule \(parts[0]) (exclude, rebuild, followParent, withoutParent, clone)")
            }
        }
        return keys
    }
}
