/// An HTTP status code. A struct rather than an enum so handlers can answer any code the
/// service needs without the server having to list it.
public struct HTTPStatus: Sendable, Hashable, CustomStringConvertible {
    public var code: Int

    public init(_ code: Int) {
        precondition((100...999).contains(code), "HTTP status codes have three digits, got \(code)")
        self.code = code
    }

    /// The reason phrase written on the status line; clients must ignore it (RFC 9112 §4),
    /// so unknown codes simply get an empty one.
    public var reasonPhrase: String {
        switch code {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 417: "Expectation Failed"
        case 422: "Unprocessable Content"
        case 428: "Precondition Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: ""
        }
    }

    /// Responses to which a body is forbidden (RFC 9110 §15.2, §15.3.5, §15.4.5).
    public var forbidsBody: Bool { code < 200 || code == 204 || code == 304 }

    public var description: String { "\(code) \(reasonPhrase)" }

    public static let `continue` = HTTPStatus(100)
    public static let ok = HTTPStatus(200)
    public static let created = HTTPStatus(201)
    public static let accepted = HTTPStatus(202)
    public static let noContent = HTTPStatus(204)
    public static let notModified = HTTPStatus(304)
    public static let badRequest = HTTPStatus(400)
    public static let unauthorized = HTTPStatus(401)
    public static let forbidden = HTTPStatus(403)
    public static let notFound = HTTPStatus(404)
    public static let methodNotAllowed = HTTPStatus(405)
    public static let requestTimeout = HTTPStatus(408)
    public static let conflict = HTTPStatus(409)
    public static let preconditionFailed = HTTPStatus(412)
    public static let contentTooLarge = HTTPStatus(413)
    public static let uriTooLong = HTTPStatus(414)
    public static let expectationFailed = HTTPStatus(417)
    public static let unprocessableContent = HTTPStatus(422)
    public static let requestHeaderFieldsTooLarge = HTTPStatus(431)
    public static let internalServerError = HTTPStatus(500)
    public static let notImplemented = HTTPStatus(501)
    public static let serviceUnavailable = HTTPStatus(503)
    public static let httpVersionNotSupported = HTTPStatus(505)
}
