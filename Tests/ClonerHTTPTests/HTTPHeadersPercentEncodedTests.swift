@testable import ClonerHTTP
import Testing

/// Which header values are read percent-decoded: exactly those a URI-component encoder can have
/// written (unreserved characters and escapes, at least one escape).
@Suite struct HTTPHeadersPercentEncodedTests {
    @Test func encodedFormsAreDecoded() {
        #expect(HTTPHeaders.decodingPercentEncodedForm("%221%22") == "\"1\"")
        #expect(HTTPHeaders.decodingPercentEncodedForm("W%2F%223%22%2C%20%224%22") == "W/\"3\", \"4\"")
        #expect(HTTPHeaders.decodingPercentEncodedForm("respond-async%2C%20wait%3D5") == "respond-async, wait=5")
        #expect(HTTPHeaders.decodingPercentEncodedForm("%2A") == "*")
        #expect(HTTPHeaders.decodingPercentEncodedForm("caf%C3%A9") == "café")
    }

    @Test func otherValuesAreKeptAsWritten() {
        for value in [
            "\"1\"", "*", "respond-async", "respond-async, wait=5", "abc", "", "%", "%2", "%zz", "a%2",
            "\"%31\"", "a:b%3A", "a b%20", "%FF%FE",
        ] {
            #expect(HTTPHeaders.decodingPercentEncodedForm(value) == value, "\(value) was decoded")
        }
    }

    @Test func fieldLookups() {
        let headers: HTTPHeaders = [
            "if-none-match": "%221%22", "Prefer": "handling%3Dlenient%2C%20respond-async", "Range": "bytes%3D0-3",
            "Idempotency-Key": "order%2042%2Fa",
        ]
        #expect(headers.clientValue(.ifNoneMatch) == "\"1\"")
        #expect(headers.clientValue(.ifMatch) == nil)
        #expect(headers.clientValue(.range) == "bytes=0-3")
        #expect(headers.clientValue(.idempotencyKey) == "order 42/a")
        #expect(headers.containsClientToken("respond-async", in: .prefer))
        #expect(!headers.containsToken("respond-async", in: "Prefer"), "the plain lookup sees one odd token")
        let plain: HTTPHeaders = ["Idempotency-Key": "order 42/a", "Range": "bytes=0-3"]
        #expect(plain.clientValue(.idempotencyKey) == "order 42/a")
        #expect(plain.clientValue(.range) == "bytes=0-3")
    }
}
