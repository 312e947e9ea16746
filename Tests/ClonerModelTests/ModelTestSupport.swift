import Foundation
import Testing
@testable import ClonerModel

/// `{"entities": [...]}` around entity objects written as JSON text.
func modelText(_ entities: String...) -> String {
    "{\"entities\": [\(entities.joined(separator: ",\n"))]}"
}

/// The problems loading `text` reports; empty when it loads.
func problems(in text: String, keys: CloneRuleKeys = .moCloner) -> [ModelProblem] {
    do {
        _ = try ModelLoader.load(data: Data(text.utf8), keys: keys)
        return []
    } catch {
        return error.problems
    }
}

func load(_ text: String, keys: CloneRuleKeys = .moCloner) throws -> DataModel {
    try ModelLoader.load(data: Data(text.utf8), keys: keys)
}

/// Expects exactly one problem, located at `entity`/`property`, whose text names both and contains
/// every fragment.
func expectSingleProblem(
    _ text: String, entity: String?, property: String?, containing fragments: [String], keys: CloneRuleKeys = .moCloner,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let found = problems(in: text, keys: keys)
    #expect(found.count == 1, "expected one problem, got \(found)", sourceLocation: sourceLocation)
    guard let problem = found.first else { return }
    #expect(problem.entity == entity, "entity of \(problem)", sourceLocation: sourceLocation)
    #expect(problem.property == property, "property of \(problem)", sourceLocation: sourceLocation)
    let text = problem.description
    for name in [entity, property].compactMap({ $0 }) where !name.isEmpty {
        #expect(text.contains(name), "\"\(text)\" should name \(name)", sourceLocation: sourceLocation)
    }
    for fragment in fragments {
        #expect(text.contains(fragment), "\"\(text)\" should contain \"\(fragment)\"", sourceLocation: sourceLocation)
    }
}

/// The sample model shipped in config/model.json.
let sampleModelURL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("config/model.json")
