/// Why a model could not be loaded: every problem found, not just the first, so one run of
/// `cloner check-model` shows the whole list.
public struct ModelError: Error, Sendable, CustomStringConvertible {
    /// The file the model came from, when it came from one.
    public var path: String?
    public var problems: [ModelProblem]

    public init(path: String? = nil, problems: [ModelProblem]) {
        precondition(!problems.isEmpty, "a ModelError needs at least one problem")
        self.path = path
        self.problems = problems
    }

    public var description: String {
        let header = path.map { "invalid model \($0):" } ?? "invalid model:"
        // One line per problem, whatever a message quotes, so the list reads (and greps) line by line.
        let lines = problems.map { "  - " + $0.description.split(whereSeparator: \.isNewline).joined(separator: " ") }
        return ([header] + lines).joined(separator: "\n")
    }
}
