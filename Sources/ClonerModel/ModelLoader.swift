import Foundation

/// Loads and validates a model file (docs/architecture.md#the-model-file, #clone-semantics) into a `DataModel`. Every mistake is reported
/// at once, before the service listens, because a model is edited by hand and fixing it one error per
/// restart is slow.
public enum ModelLoader {
    /// A model file, or a Core Data model as Xcode saves it (`.xcdatamodeld`, `.xcdatamodel`, or its
    /// `contents` file; docs/architecture.md#core-data-models), told apart by name and first bytes.
    public static func load(contentsOf url: URL, keys: CloneRuleKeys = .moCloner) throws(ModelError) -> DataModel {
        if CoreDataModelReader.isCoreDataModel(url) {
            let reading = try CoreDataModelReader.read(contentsOf: url)
            return try load(root: reading.document, path: url.path, keys: keys, refusals: reading.refusals, sourceMap: reading.sourceMap)
        }
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
        return try load(root: root, path: path, keys: keys, refusals: [])
    }

    /// `cloner import-model`: a Core Data model in the model file's form, once it is known to load
    /// (every refusal and mistake is thrown, as `load` would). Loading the result gives the same model.
    public static func importCoreDataModel(contentsOf url: URL, keys: CloneRuleKeys = .moCloner) throws(ModelError) -> JSONValue {
        let reading = try CoreDataModelReader.read(contentsOf: url)
        _ = try load(root: reading.document, path: url.path, keys: keys, refusals: reading.refusals, sourceMap: reading.sourceMap)
        return reading.document
    }

    /// Decodes and validates a model in the file's JSON form. `refusals` are problems found before
    /// (what a Core Data model has that Cloner cannot represent), reported with the rest; a Core
    /// Data model's `sourceMap` words the others by the XML's lines instead of JSON paths.
    private static func load(
        root: JSONValue, path: String?, keys: CloneRuleKeys, refusals: [ModelProblem], sourceMap: CoreDataSourceMap? = nil
    ) throws(ModelError) -> DataModel {
        var decoder = ModelFileDecoder(keys: keys)
        var draft = decoder.decode(root)
        let declared = draft
        let inheritance = draft.resolveInheritance()
        var validator = ModelValidator(draft: draft, keys: keys)
        // Until the inheritance is settled the entities and their properties are not: the rest
        // of validation would only echo its problems.
        if inheritance.isEmpty { validator.validate() }
        var found = decoder.problems + inheritance + validator.problems
        if let sourceMap { found = found.map(sourceMap.locate) }
        let problems = refusals + found
        guard problems.isEmpty else { throw ModelError(path: path, problems: inFileOrder(problems, draft: declared)) }
        return validator.model()
    }

    /// Groups the problems by entity in the order the file declares them, so the list reads top to
    /// bottom like the file; problems of the whole model come first. Within an entity, a Core Data
    /// model's problems follow their lines in `contents`; otherwise shape problems come before
    /// cross-entity ones, each in discovery order.
    private static func inFileOrder(_ problems: [ModelProblem], draft: ModelDraft) -> [ModelProblem] {
        var rank: [String: Int] = [:]
        for (index, entity) in draft.entities.enumerated() {
            if let name = entity.name, rank[name] == nil { rank[name] = index + 1 }
        }
        return problems.enumerated()
            .sorted { lhs, rhs in
                let left = lhs.element.entity.flatMap { rank[$0] } ?? 0, right = rhs.element.entity.flatMap { rank[$0] } ?? 0
                return (left, lhs.element.line ?? 0, lhs.offset) < (right, rhs.element.line ?? 0, rhs.offset)
            }
            .map(\.element)
    }
}
