import ClonerModel
import COpenSSL

/// Checks `Authorization: Bearer <key>` against the configured API keys (docs/architecture.md#authentication).
///
/// Keys are held only as SHA-256 digests, so a memory dump or a logged configuration does not give
/// keys away, and a deployment may configure `sha256:<hex>` instead of the key itself. A presented
/// key is hashed and compared with every stored digest using `CRYPTO_memcmp`, whose time does not
/// depend on where the bytes differ, and the loop does not stop at a match, so timing tells an
/// attacker neither how much of a key was right nor which key matched.
public struct APIKeyAuthenticator: Sendable {
    public enum AccessLevel: String, Sendable, Hashable {
        /// Reads and writes.
        case full
        /// Reads only: a write answers 403.
        case readOnly
    }

    public enum Decision: Sendable, Hashable {
        /// Go ahead. `level` is nil when no keys are configured (authentication is off).
        case allowed(AccessLevel?)
        /// 401 with `WWW-Authenticate: Bearer`: no key, a malformed header, or an unknown key.
        case unauthorized(reason: String)
        /// 403: a read-only key on a write.
        case forbidden
    }

    private struct StoredKey: Sendable {
        var digest: [UInt8]
        var level: AccessLevel
    }

    private let keys: [StoredKey]

    /// Whether any key is configured; without keys every request is allowed.
    public var isEnabled: Bool { !keys.isEmpty }

    /// - Precondition: every key passes `validateKeySpecification` (the configuration loader
    ///   checks them and reports bad ones by variable name before this is built).
    public init(fullAccessKeys: [String], readOnlyKeys: [String]) {
        var keys: [StoredKey] = []
        for (specs, level) in [(fullAccessKeys, AccessLevel.full), (readOnlyKeys, .readOnly)] {
            for spec in specs {
                switch Self.digest(ofKeySpecification: spec) {
                case .success(let digest): keys.append(StoredKey(digest: digest, level: level))
                case .failure(let problem): preconditionFailure("API key not validated before use: \(problem)")
                }
            }
        }
        self.keys = keys
    }

    public init(configuration: ServiceConfiguration) {
        self.init(fullAccessKeys: configuration.apiKeys, readOnlyKeys: configuration.readOnlyAPIKeys)
    }

    /// Decides a request from its `Authorization` field value (nil when absent).
    public func authorize(authorization: String?, isWrite: Bool) -> Decision {
        guard isEnabled else { return .allowed(nil) }
        guard let authorization else { return .unauthorized(reason: "missing Authorization header") }
        guard let token = Self.bearerToken(in: authorization) else {
            return .unauthorized(reason: "Authorization is not of the form Bearer <key>")
        }
        let presented = Self.sha256(Array(token.utf8))
        var matched: AccessLevel?
        for key in keys {
            let equal = presented.withUnsafeBytes { lhs in
                key.digest.withUnsafeBytes { rhs in CRYPTO_memcmp(lhs.baseAddress, rhs.baseAddress, 32) == 0 }
            }
            // A full key wins when the same key is configured at both levels.
            if equal, matched != .full { matched = key.level }
        }
        switch matched {
        case nil: return .unauthorized(reason: "unknown API key")
        case .readOnly? where isWrite: return .forbidden
        case let level?: return .allowed(level)
        }
    }

    /// RFC 9110 §9.2.1: GET, HEAD, OPTIONS and TRACE are safe; every other method is a write.
    public static func isWrite(method: String) -> Bool {
        switch method {
        case "GET", "HEAD", "OPTIONS", "TRACE": return false
        default: return true
        }
    }

    /// Probes answer without a key so orchestrators need no secret (docs/architecture.md#authentication).
    public static func requiresAuthentication(path: String) -> Bool {
        path != "/healthz" && path != "/readyz"
    }

    /// The token of `Bearer <token>`. RFC 9110 §11.1: the scheme is case-insensitive; RFC 6750
    /// §2.1: one or more spaces, then a b64token.
    static func bearerToken(in value: String) -> Substring? {
        let scheme = "bearer"
        guard value.utf8.count > scheme.utf8.count + 1 else { return nil }
        let prefix = value.utf8.prefix(scheme.utf8.count)
        guard zip(prefix, scheme.utf8).allSatisfy({ $0 | 0x20 == $1 }) else { return nil }
        var rest = value.utf8.dropFirst(scheme.utf8.count)
        guard rest.first == UInt8(ascii: " ") else { return nil }
        rest = rest.drop(while: { $0 == UInt8(ascii: " ") })
        let token = Substring(rest)
        guard isToken68(token) else { return nil }
        return token
    }

    /// RFC 6750 §2.1 b64token: `1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`.
    static func isToken68<S: StringProtocol>(_ text: S) -> Bool {
        var seenPadding = false
        var count = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "=") {
                guard count > 0 else { return false }
                seenPadding = true
            } else {
                guard !seenPadding else { return false }
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"):
                    break
                default:
                    return false
                }
            }
            count += 1
        }
        return count > 0
    }

    /// Checks a configured key: a plain key that a client could send as a bearer token, or
    /// `sha256:` followed by 64 hex digits. Returns what is wrong, or nil.
    public static func validateKeySpecification(_ spec: String) -> String? {
        if case .failure(let problem) = digest(ofKeySpecification: spec) { return problem.message }
        return nil
    }

    struct KeyProblem: Error { var message: String }

    static func digest(ofKeySpecification spec: String) -> Result<[UInt8], KeyProblem> {
        if spec.hasPrefix("sha256:") {
            let hex = Array(spec.utf8.dropFirst(7))
            guard hex.count == 64 else { return .failure(KeyProblem(message: "sha256: must be followed by 64 hex digits")) }
            var digest: [UInt8] = []
            digest.reserveCapacity(32)
            for pair in stride(from: 0, to: 64, by: 2) {
                guard let high = hex[pair].hexDigitValue, let low = hex[pair + 1].hexDigitValue else {
                    return .failure(KeyProblem(message: "sha256: must be followed by 64 hex digits"))
                }
                digest.append(high << 4 | low)
            }
            return .success(digest)
        }
        guard isToken68(spec) else {
            return .failure(KeyProblem(message: "a key must be non-empty and use only letters, digits and - . _ ~ + / (RFC 6750 b64token)"))
        }
        return .success(sha256(Array(spec.utf8)))
    }

    /// SHA-256 through OpenSSL's EVP interface (the low-level `SHA256_*` calls are deprecated in 3.0).
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        precondition(ok == 1 && length == 32, "EVP_Digest(SHA-256) failed")
        return digest
    }
}
