import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// `Authorization: Bearer key   ` is the key: RFC 9110 §5.5 says optional whitespace around a
/// field value is not part of it (the HTTP parser strips it before the key check).
@Suite("Service: bearer token whitespace")
struct BearerWhitespaceServiceTests {
    @Test("a bearer token followed by spaces or a tab is accepted; a wrong one still is not")
    func trailingWhitespaceIsAccepted() async throws {
        try await TestService.withService(environment: ["CLONER_API_KEYS": "s3cret-key"]) { service in
            for value in ["Bearer s3cret-key   ", "Bearer s3cret-key\t", "bearer   s3cret-key  "] {
                let connection = try RawClient(port: service.port, timeout: 60)
                connection.send("GET /model HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: \(value)\r\nConnection: close\r\n\r\n")
                let response = try await connection.receiveResponse()
                #expect(response.status == 200, "Authorization: \(value.debugDescription) → \(response.status) \(response.text)")
            }
            let wrong = try RawClient(port: service.port, timeout: 60)
            wrong.send("GET /model HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer s3cret-keyX   \r\nConnection: close\r\n\r\n")
            #expect(try await wrong.receiveResponse().status == 401)
        }
    }
}
