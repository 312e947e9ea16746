/// An error answer in the RFC 9457 `application/problem+json` format.
///
/// Every error the service answers goes through this type so clients can branch on `code`, a
/// stable machine-readable string, instead of parsing `title`/`detail`, which are for people and
/// may change wording.
public struct Problem: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    public static let contentType = "application/problem+json"

    /// A stable error code. A struct rather than an enum so a handler can add a code without
    /// changing this file; the static members are the codes docs/architecture.md#errors lists.
    public struct Code: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        public static let badRequest = Code("bad_request")
        public static let notFound = Code("not_found")
        public static let invalidJSON = Code("invalid_json")
        public static let validationFailed = Code("validation_failed")
        public static let conflict = Code("conflict")
        public static let preconditionFailed = Code("precondition_failed")
        public static let preconditionRequired = Code("precondition_required")
        public static let payloadTooLarge = Code("payload_too_large")
        public static let unauthorized = Code("unauthorized")
        public static let forbidden = Code("forbidden")
        public static let methodNotAllowed = Code("method_not_allowed")
        public static let notAcceptable = Code("not_acceptable")
        public static let unsupportedMediaType = Code("unsupported_media_type")
        public static let requestTimeout = Code("request_timeout")
        public static let idempotencyKeyReused = Code("idempotency_key_reused")
        /// The same `Idempotency-Key` is being served by a request still running (docs/architecture.md#replicas).
        public static let inProgress = Code("in_progress")
        public static let tooManyObjects = Code("too_many_objects")
        public static let serviceUnavailable = Code("service_unavailable")
        /// No database node takes writes: unreachable, or a failover under way. Not overload: the
        /// same request succeeds once a primary answers.
        public static let databaseUnavailable = Code("database_unavailable")
        public static let internalError = Code("internal_error")

        /// The HTTP status a code is normally answered with.
        public var defaultStatus: Int {
            switch self {
            case .badRequest, .invalidJSON: return 400
            case .unauthorized: return 401
            case .forbidden: return 403
            case .notFound: return 404
            case .methodNotAllowed: return 405
            case .notAcceptable: return 406
            case .requestTimeout: return 408
            case .conflict, .inProgress: return 409
            case .preconditionFailed: return 412
            case .payloadTooLarge: return 413
            case .unsupportedMediaType: return 415
            case .validationFailed, .idempotencyKeyReused, .tooManyObjects: return 422
            case .preconditionRequired: return 428
            case .serviceUnavailable, .databaseUnavailable: return 503
            default: return 500
            }
        }
    }

    /// A URI naming the problem kind (RFC 9457 §3.1.1). A URN: it identifies, it is not a page to fetch.
    public var type: String
    /// A short summary that does not change between occurrences (RFC 9457 §3.1.3).
    public var title: String
    public var status: Int
    /// This occurrence, in words a person can act on.
    public var detail: String
    public var code: Code
    /// The request's `X-Request-ID`, so a report can be matched with the access log.
    public var requestId: String?
    /// The offending field or property; with several (`errors`), the first of them, so a client
    /// reading only `field` always has one to point at.
    public var field: String?
    /// Every offending field, for validation failures.
    public var errors: [FieldError]?

    public init(
        code: Code,
        status: Int? = nil,
        title: String? = nil,
        detail: String,
        requestId: String? = nil,
        field: String? = nil,
        errors: [FieldError]? = nil
    ) {
        let status = status ?? code.defaultStatus
        precondition((400...599).contains(status), "a problem is an error answer; status \(status) is not")
        self.type = "urn:cloner:problem:\(code.rawValue)"
        self.title = title ?? Problem.title(forStatus: status)
        self.status = status
        self.detail = detail
        self.code = code
        self.requestId = requestId
        self.field = field ?? errors?.first?.field
        self.errors = errors
    }

    public var description: String { "\(status) \(code.rawValue): \(detail)" }

    /// The same problem stamped with the request it answers.
    public func with(requestId: String?) -> Problem {
        var copy = self
        copy.requestId = requestId
        return copy
    }

    /// The reason phrases of RFC 9110 §15, used as titles.
    public static func title(forStatus status: Int) -> String {
        switch status {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 402: return "Payment Required"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 406: return "Not Acceptable"
        case 407: return "Proxy Authentication Required"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 410: return "Gone"
        case 411: return "Length Required"
        case 412: return "Precondition Failed"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 415: return "Unsupported Media Type"
        case 416: return "Range Not Satisfiable"
        case 417: return "Expectation Failed"
        case 421: return "Misdirected Request"
        case 422: return "Unprocessable Content"
        case 426: return "Upgrade Required"
        case 428: return "Precondition Required"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        case 505: return "HTTP Version Not Supported"
        default: return status < 500 ? "Client Error" : "Server Error"
        }
    }

    /// A stable code for a status the HTTP layer answers on its own: the reason phrase in snake
    /// case (`Expectation Failed` → `expectation_failed`), never a bare number a client would have
    /// to map itself.
    public static func code(forStatus status: Int) -> Code {
        let words = title(forStatus: status).lowercased().split { !$0.isLetter && !$0.isNumber }
        return Code(words.joined(separator: "_"))
    }
}
