/// Where the server's certificate chain and private key live (PEM files).
public struct TLSConfiguration: Sendable, Equatable {
    public var certificateChainPath: String
    public var privateKeyPath: String

    public init(certificateChainPath: String, privateKeyPath: String) {
        self.certificateChainPath = certificateChainPath
        self.privateKeyPath = privateKeyPath
    }
}
