import ClonerModel
@testable import ClonerService
import Foundation
import Testing

@Suite struct APIKeyAuthenticatorTests {
    @Test func sha256MatchesOpenSSLTool() throws {
        let digest = APIKeyAuthenticator.sha256(Array("s3cret-key".utf8))
        #expect(digest.lowercaseHex == (try opensslSHA256Hex("s3cret-key")))
        #expect(APIKeyAuthenticator.sha256([]).count == 32)
    }

    @Test func noKeysAllowsEverything() {
        let auth = APIKeyAuthenticator(fullAccessKeys: [], readOnlyKeys: [])
        #expect(!auth.isEnabled)
        #expect(auth.authorize(authorization: nil, isWrite: true) == .allowed(nil))
    }

    @Test func fullAndReadOnlyKeys() throws {
        let hashed = "sha256:" + (try opensslSHA256Hex("hashed-key")).uppercased()
        let auth = APIKeyAuthenticator(fullAccessKeys: ["full-key", hashed], readOnlyKeys: ["read-key"])
        #expect(auth.authorize(authorization: "Bearer full-key", isWrite: true) == .allowed(.full))
        #expect(auth.authorize(authorization: "bearer   hashed-key", isWrite: true) == .allowed(.full))
        #expect(auth.authorize(authorization: "Bearer read-key", isWrite: false) == .allowed(.readOnly))
        #expect(auth.authorize(authorization: "Bearer read-key", isWrite: true) == .forbidden)
        #expect(
            auth.authorize(authorization: "Bearer sha256:" + (try opensslSHA256Hex("hashed-key")), isWrite: false)
                == .unauthorized(reason: "Authorization is not of the form Bearer <key>"), "the digest itself is not a key")
    }

    @Test(arguments: [nil, "", "Bearer", "Bearer ", "Basic full-key", "Bearerfull-key", "Bearer full-key extra", "Bearer full-kez", "Bearer full-key=x"])
    func wrongOrMissingKeysAreUnauthorized(header: String?) {
        let auth = APIKeyAuthenticator(fullAccessKeys: ["full-key"], readOnlyKeys: [])
        guard case .unauthorized = auth.authorize(authorization: header, isWrite: false) else {
            Issue.record("\(header ?? "nil") was not refused")
            return
        }
    }

    @Test func sameKeyAtBothLevelsGrantsFullAccess() {
        let auth = APIKeyAuthenticator(fullAccessKeys: ["k"], readOnlyKeys: ["k"])
        #expect(auth.authorize(authorization: "Bearer k", isWrite: true) == .allowed(.full))
    }

    @Test func validatesKeySpecifications() {
        #expect(APIKeyAuthenticator.validateKeySpecification("abc-DEF_123.~+/==") == nil)
        #expect(APIKeyAuthenticator.validateKeySpecification("") != nil)
        #expect(APIKeyAuthenticator.validateKeySpecification("has space") != nil)
        #expect(APIKeyAuthenticator.validateKeySpecification("sha256:abc") != nil)
        #expect(APIKeyAuthenticator.validateKeySpecification("sha256:" + String(repeating: "g", count: 64)) != nil)
        #expect(APIKeyAuthenticator.validateKeySpecification("sha256:" + String(repeating: "a", count: 64)) == nil)
    }

    @Test func methodsAndPublicPaths() {
        #expect(!APIKeyAuthenticator.isWrite(method: "GET"))
        #expect(!APIKeyAuthenticator.isWrite(method: "HEAD"))
        #expect(APIKeyAuthenticator.isWrite(method: "POST"))
        #expect(APIKeyAuthenticator.isWrite(method: "PATCH"))
        #expect(APIKeyAuthenticator.isWrite(method: "DELETE"))
        #expect(!APIKeyAuthenticator.requiresAuthentication(path: "/healthz"))
        #expect(!APIKeyAuthenticator.requiresAuthentication(path: "/readyz"))
        #expect(APIKeyAuthenticator.requiresAuthentication(path: "/metrics"))
    }
}
