import ClonerHTTP

extension HTTPRequest {
    /// Fields the service reads as one value. Sent twice, which one counts would be a guess — the
    /// first for this service, perhaps the last for a proxy in front of it, which may have checked
    /// another key — so the request is refused instead. RFC 9110 §5.3: only list-based fields may
    /// be repeated; `Authorization` (§11.6.2), `Content-Type` (§8.3), `Range` (§14.2) and
    /// `If-Range` (§13.1.5) are singletons, and so is `Idempotency-Key` (an Item structured field).
    static let singletonFields = ["Authorization", "Idempotency-Key", "Content-Type", "Range", "If-Range"]

    /// 400 naming the first singleton field the request holds more than once.
    func requireSingletonFields() throws(Problem) {
        for name in Self.singletonFields where headers.values(name).count > 1 {
            throw Problem(code: .badRequest, detail: "the request holds \(name) more than once; send it once", field: name)
        }
    }
}
