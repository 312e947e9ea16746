import ClonerModel
/// The problems the REST handlers answer most, with the wording kept in one place.
extension Problem {
    public static func notFound(_ detail: String) -> Problem {
        Problem(code: .notFound, detail: detail)
    }

    public static func invalidJSON(_ error: JSONSyntaxError) -> Problem {
        Problem(code: .invalidJSON, detail: error.description)
    }

    /// 422 listing every offending field; `field` is filled too when there is exactly one.
    public static func validationFailed(_ errors: [FieldError], detail: String? = nil) -> Problem {
        precondition(!errors.isEmpty, "a validation problem names at least one field")
        let summary =
            detail
            ?? (errors.count == 1
                ? errors[0].description
                : "\(errors.count) fields are invalid: " + errors.map(\.field).joined(separator: ", "))
        return Problem(code: .validationFailed, detail: summary, field: errors.count == 1 ? errors[0].field : nil, errors: errors)
    }

    public static func conflict(_ detail: String, field: String? = nil) -> Problem {
        Problem(code: .conflict, detail: detail, field: field)
    }

    public static func preconditionFailed(_ detail: String) -> Problem {
        Problem(code: .preconditionFailed, detail: detail)
    }

    public static func payloadTooLarge(limit: Int) -> Problem {
        Problem(code: .payloadTooLarge, detail: "the request body is larger than the limit of \(limit) bytes")
    }

    /// The handler adds `WWW-Authenticate: Bearer` (docs/architecture.md#errors).
    public static func unauthorized(_ detail: String = "a valid API key is required: send Authorization: Bearer <key>") -> Problem {
        Problem(code: .unauthorized, detail: detail)
    }

    public static func forbidden(_ detail: String = "this API key is read-only") -> Problem {
        Problem(code: .forbidden, detail: detail)
    }

    /// The handler adds the `Allow` header (RFC 9110 §15.5.6).
    public static func methodNotAllowed(_ method: String, allowed: [String]) -> Problem {
        Problem(code: .methodNotAllowed, detail: "\(method) is not allowed here; allowed: \(allowed.joined(separator: ", "))")
    }

    public static func notAcceptable(_ detail: String = "this resource is available as application/json only") -> Problem {
        Problem(code: .notAcceptable, detail: detail)
    }

    public static func unsupportedMediaType(_ contentType: String?) -> Problem {
        Problem(code: .unsupportedMediaType, detail: "expected Content-Type application/json, got \(contentType ?? "none")")
    }

    public static func requestTimeout() -> Problem {
        Problem(code: .requestTimeout, detail: "the request was not received in time")
    }

    /// The detail never carries the underlying error text: it may name files or SQL.
    public static func internalError() -> Problem {
        Problem(code: .internalError, detail: "an internal error occurred; the request id identifies it in the service log")
    }
}
