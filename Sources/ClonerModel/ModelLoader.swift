import Foundation

/// Loads and validates a model file (DESIGN.md §2, §3) into a `DataModel`. Every mistake is reported
/// at once, before the service listens, because a model is edited by hand and fixing it one error per
/// restart is slow.
public enum ModelLoader {
    public static func load(contentsOf url: URL, keys: CloneRuleKeys = .moCloner) throws(ModelError) -> DataModel {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ModelError(path: url.path, problems: [ModelProblem(message: "cannot read the model file: \(error.localizedDescription)")])
        }
        return try load(data: data, path: url.path, keys: keys)
    }

    /// `path` only labels the error; the model is read from `data`.
    public static func load(data: Data, path: String? = nil, keys: CloneRuleKeys = .moCloner) throws(ModelError) -> DataModel {
        let root: JSONValue
        do {
            root = try JSONValue(parsing: data)
        } catch {
            throw ModelError(path: path, problems: [ModelProblem(message: "malformed JSON at \(error)")])
        }
        var decoder = ModelFileDecoder(keys: keys)
        let draft = decoder.decode(root)
        var validator = ModelValidator(draft: draft, keys: keys)
        validator.validate()
        let problems = decoder.problems + validator.problems
        guard problems.isEmpty else { throw ModelError(path: path, problems: problems) }
        return validator.model()
    }
}
