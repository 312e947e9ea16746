/// A route path such as `/{collection}/{id}/clone`: literal segments and `{name}` parameters,
/// each matching exactly one non-empty path segment.
public struct PathPattern: Sendable, Hashable, CustomStringConvertible {
    public enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    public let segments: [Segment]
    public let description: String

    /// Parses `pattern`; a malformed pattern is a programmer mistake, hence a precondition.
    public init(_ pattern: String) {
        precondition(pattern.hasPrefix("/"), "route pattern \"\(pattern)\" must start with /")
        segments = pattern.split(separator: "/").map { part in
            if part.hasPrefix("{") {
                precondition(part.hasSuffix("}") && part.count > 2, "malformed parameter \"\(part)\" in route \"\(pattern)\"")
                return .parameter(String(part.dropFirst().dropLast()))
            }
            precondition(!part.contains("{") && !part.contains("}"), "malformed segment \"\(part)\" in route \"\(pattern)\"")
            return .literal(String(part))
        }
        description = pattern
    }

    /// Matches decoded path segments; returns the parameters, or nil.
    func match(_ path: [String]) -> [String: String]? {
        guard path.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, value) in zip(segments, path) {
            switch segment {
            case .literal(let literal):
                if literal != value { return nil }
            case .parameter(let name):
                parameters[name] = value
            }
        }
        return parameters
    }

    /// True when `self` should win over `other` for a path both match: the first segment where
    /// they differ is literal here (`/jobs/{id}` beats `/{collection}/{id}`).
    func isMoreSpecific(than other: PathPattern) -> Bool {
        for (mine, theirs) in zip(segments, other.segments) {
            switch (mine, theirs) {
            case (.literal, .parameter): return true
            case (.parameter, .literal): return false
            default: continue
            }
        }
        return false
    }
}
