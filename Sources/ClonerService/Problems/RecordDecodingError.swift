import ClonerModel
/// Why a request body could not become a `RecordInput` (or clone options): the two kinds answer
/// different statuses, 400 for text that is not JSON, 422 for JSON that does not fit the model.
public enum RecordDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidJSON(JSONSyntaxError)
    /// Every offending field, sorted by path; never empty.
    case invalidFields([FieldError])

    public var problem: Problem {
        switch self {
        case .invalidJSON(let error): return .invalidJSON(error)
        case .invalidFields(let errors): return .validationFailed(errors)
        }
    }

    public var description: String {
        switch self {
        case .invalidJSON(let error): return error.description
        case .invalidFields(let errors): return errors.map(\.description).joined(separator: "; ")
        }
    }
}
