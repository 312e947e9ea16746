import Testing
@testable import ClonerHTTP

@Suite struct RouterTests {
    private func router() -> Router {
        var router = Router()
        router.get("/{collection}") { _ in .text("list") }
        router.post("/{collection}") { _ in .text("create") }
        router.get("/{collection}/{id}") { _ in .text("read") }
        router.patch("/{collection}/{id}") { _ in .text("update") }
        router.post("/{collection}/{id}/clone") { _ in .text("clone") }
        router.get("/jobs/{id}") { _ in .text("job") }
        router.get("/healthz") { _ in .text("ok") }
        return router
    }

    private func route(_ method: HTTPMethod, _ path: String) -> (route: String?, parameters: [String: String], allowed: [HTTPMethod]?) {
        switch router().resolve(method, path: Substring(path)) {
        case .matched(_, let route, let parameters): (route, parameters, nil)
        case .notFound: (nil, [:], nil)
        case .methodNotAllowed(let allowed): (nil, [:], allowed)
        }
    }

    @Test func parametersAreExtractedAndDecoded() {
        let match = route(.post, "/notes/42/clone")
        #expect(match.route == "/{collection}/{id}/clone")
        #expect(match.parameters == ["collection": "notes", "id": "42"])
        #expect(route(.get, "/my%20notes/a%2Fb").parameters == ["collection": "my notes", "id": "a/b"])
    }

    @Test func literalSegmentsWin() {
        #expect(route(.get, "/jobs/7").route == "/jobs/{id}")
        #expect(route(.get, "/healthz").route == "/healthz")
        #expect(route(.get, "/notes").route == "/{collection}")
    }

    @Test func methodNotAllowedListsTheMethodsOfTheBestPattern() {
        #expect(route(.delete, "/jobs/7").allowed == [.get, .head])
        #expect(route(.delete, "/notes/7").allowed == [.get, .head, .patch])
    }

    @Test func headFallsBackToGet() {
        #expect(route(.head, "/notes/1").route == "/{collection}/{id}")
    }

    @Test func unknownPathsAreNotFound() {
        let match = route(.get, "/a/b/c/d")
        #expect(match.route == nil && match.allowed == nil)
    }

    @Test func requestPathAndQuery() {
        let request = HTTPRequest(method: .get, target: "/notes/1?limit=5&order=name,-date&q=a+b%21&flag")
        #expect(request.path == "/notes/1")
        #expect(request.query == "limit=5&order=name,-date&q=a+b%21&flag")
        #expect(
            request.queryItems == [
                QueryItem(name: "limit", value: "5"), QueryItem(name: "order", value: "name,-date"),
                QueryItem(name: "q", value: "a b!"), QueryItem(name: "flag", value: ""),
            ])
        #expect(request.queryValue("q") == "a b!")
        #expect(HTTPRequest(method: .get, target: "http://example.com/x/y?z=1").path == "/x/y")
        #expect(HTTPRequest(method: .get, target: "/a%20b/c").pathSegments == ["a b", "c"])
    }

    @Test func headersAreCaseInsensitiveAndOrdered() {
        var headers: HTTPHeaders = ["Content-Type": "a", "X-One": "1"]
        headers.add("x-one", "2")
        #expect(headers["content-type"] == "a")
        #expect(headers.values("X-ONE") == ["1", "2"])
        headers.set("X-One", "3")
        #expect(headers.values("x-one") == ["3"])
        #expect(headers.fields.map(\.name) == ["Content-Type", "X-One"])
        headers.remove("CONTENT-TYPE")
        #expect(headers.count == 1)
    }

    @Test func dateHeaderFormat() {
        #expect(String(decoding: HTTPDateCache.format(784_111_777), as: UTF8.self) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }
}
