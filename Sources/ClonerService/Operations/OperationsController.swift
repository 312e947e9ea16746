import ClonerHTTP
import Foundation

extension ClonerApplication {
    /// Ready when not draining and the store's file can be written (DESIGN.md §5).
    func readiness() -> HTTPResponse {
        if isDraining {
            return HTTPResponse.json(Array(#"{"status":"draining"}"#.utf8), status: HTTPStatus(503))
        }
        guard store.isWritable() else {
            return HTTPResponse.json(Array(#"{"status":"store not writable"}"#.utf8), status: HTTPStatus(503))
        }
        return HTTPResponse.json(Array(#"{"status":"ready"}"#.utf8))
    }

    /// The normalised model, with the fingerprint as ETag so clients can cache it.
    func modelResponse(_ request: HTTPRequest) -> HTTPResponse {
        if let tags = request.headers["If-None-Match"], ClonerApplication.noneMatch(tags, current: modelTag) {
            return HTTPResponse(status: .notModified, headers: ["ETag": modelTag])
        }
        return HTTPResponse.json(modelDocument, headers: ["ETag": modelTag])
    }

    /// Whether an `If-None-Match` list names the current tag: `*`, or any member by weak
    /// comparison, `W/` ignored (RFC 9110 §13.1.2).
    static func noneMatch(_ header: String, current: String) -> Bool {
        header.split(separator: ",").contains { member in
            var tag = member.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == current
        }
    }
}
