import Synchronization

/// The way a `deferred` handler answers later, from any thread. Calling `respond(_:)` queues the
/// response to the connection's event loop and wakes it through its eventfd.
///
/// Exactly one answer counts: later calls are ignored. A responder dropped without an answer
/// answers 500 on its own, so a forgotten code path cannot hang a client forever.
public final class HTTPResponder: Sendable {
    private let deliver: @Sendable (Result<HTTPResponse, any Error>) -> Void
    private let answered = Atomic<Bool>(false)

    init(deliver: @escaping @Sendable (Result<HTTPResponse, any Error>) -> Void) {
        self.deliver = deliver
    }

    /// Sends `response`; returns false when this request was already answered.
    @discardableResult
    public func respond(_ response: HTTPResponse) -> Bool {
        guard claim() else { return false }
        deliver(.success(response))
        return true
    }

    /// Answers with the response for `error` (see `HTTPResponseError`).
    @discardableResult
    public func fail(_ error: any Error) -> Bool {
        guard claim() else { return false }
        deliver(.failure(error))
        return true
    }

    private func claim() -> Bool {
        answered.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }

    deinit {
        if claim() { deliver(.failure(ResponderDropped())) }
    }
}
