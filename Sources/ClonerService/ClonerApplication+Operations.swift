import ClonerHTTP

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
        if request.headers["If-None-Match"] == modelTag {
            return HTTPResponse(status: .notModified, headers: ["ETag": modelTag])
        }
        return HTTPResponse.json(modelDocument, headers: ["ETag": modelTag])
    }
}
