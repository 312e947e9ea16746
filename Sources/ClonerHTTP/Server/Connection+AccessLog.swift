/// The access-log record of each answered request.
extension Connection {
    func logAccess(method: HTTPMethod, request: HTTPRequest, status: HTTPStatus, startedAt: UInt64, bytes: Int) {
        guard let log = core.hooks.accessLog else { return }
        // A fresh reading, not the loop's cached one: a deferred answer that comes back within the
        // same loop iteration would otherwise log 0 ms however long its work took.
        let now = MonotonicClock.now()
        let elapsed = now >= startedAt ? now - startedAt : 0
        log(
            HTTPAccessLogRecord(
                method: method.rawValue, path: request.target.isEmpty ? "" : String(request.path), route: request.route,
                status: status.code, duration: .nanoseconds(Int64(clamping: elapsed)), bytesSent: bytes,
                bytesReceived: requestBodyBytes,
                requestID: request.id, remoteAddress: request.remoteAddress, loop: owner.loop.index))
        requestBodyBytes = 0
    }
}
