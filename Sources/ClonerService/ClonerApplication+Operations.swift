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
        // RFC 9110 §13.1.2: a list of tags, weak comparison, or `*`.
        if let header = request.headers["If-None-Match"], header.split(separator: ",").contains(where: { part in
            var tag = part.trimmingCharacters(in: .whitespaces)
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == modelTag || tag == "*"
        }) {
            return HTTPResponse(status: .notModified, headers: ["ETag": modelTag])
        }
        return HTTPResponse.json(modelDocument, headers: ["ETag": modelTag])
    }
}
