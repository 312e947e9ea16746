import ClonerHTTP

/// The query of a list ordered newest first (jobs, an object's clones): `limit`, `cursor` and the
/// list's own parameters, each at most once, every problem named in one 422.
struct NewestFirstPageQuery<Position> {
    var limit: Int
    var position: Position?
    /// Whether the request named `limit`, which the next page's link then repeats.
    var namesLimit: Bool

    /// `own` are the list's parameters besides `limit` and `cursor`, each handed to `read`, which
    /// adds a problem to the list when its value is wrong; `route` names the list in the message
    /// for a parameter it does not have.
    init(
        _ request: HTTPRequest, route: String, defaultLimit: Int, maximumLimit: Int, own: [String] = [],
        decode: (String) -> Position?, read: (QueryItem, inout [FieldError]) -> Void = { _, _ in }
    ) throws(Problem) {
        (limit, position, namesLimit) = (defaultLimit, nil, false)
        var errors: [FieldError] = []
        var seen: Set<String> = []
        for item in request.queryItems {
            guard seen.insert(item.name).inserted else {
                errors.append(FieldError(field: item.name, message: "given more than once"))
                continue
            }
            switch item.name {
            case "limit":
                namesLimit = true
                if let number = Int(item.value), (1...maximumLimit).contains(number) {
                    limit = number
                } else {
                    errors.append(FieldError(field: "limit", message: "expected an integer from 1 to \(maximumLimit), got \(item.value)"))
                }
            case "cursor":
                position = decode(item.value)
                if position == nil {
                    errors.append(FieldError(field: "cursor", message: "not a cursor of this service; use the next link of the previous page as given"))
                }
            case let name where own.contains(name):
                read(item, &errors)
            default:
                let names = (own + ["limit", "cursor"]).joined(separator: ", ")
                errors.append(FieldError(field: item.name, message: "not a parameter of \(route) (\(names))"))
            }
        }
        guard errors.isEmpty else { throw Problem.validationFailed(errors) }
    }
}
