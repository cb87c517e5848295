import HummingbirdTLS

/// The certificate chain and private key `verdict serve` answers HTTPS with
/// (`VERDICT_TLS_CERTIFICATE_FILE`, `VERDICT_TLS_KEY_FILE`), read and checked at start: a file
/// that is missing or not PEM is a configuration error, not a failure at the first connection.
/// For deployments without a TLS-terminating proxy in front.
public struct TLSIdentity: Sendable {
    public let certificateFile: String
    public let keyFile: String
    let certificateChain: [NIOSSLCertificate]
    let privateKey: NIOSSLPrivateKey

    /// Reads both PEM files; throws the setting at fault.
    init(certificateFile: String, keyFile: String) throws(ConfigurationError) {
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        do {
            certificateChain = try NIOSSLCertificate.fromPEMFile(certificateFile)
        } catch {
            throw ConfigurationError(.tlsCertificateFile, "is not a readable PEM certificate chain: '\(certificateFile)'")
        }
        guard !certificateChain.isEmpty else {
            throw ConfigurationError(.tlsCertificateFile, "holds no certificate: '\(certificateFile)'")
        }
        do {
            privateKey = try NIOSSLPrivateKey(file: keyFile, format: .pem)
        } catch {
            throw ConfigurationError(.tlsKeyFile, "is not a readable PEM private key: '\(keyFile)'")
        }
    }

    /// The server's TLS configuration (TLS 1.2 and later, NIOSSL's defaults otherwise).
    var serverConfiguration: TLSConfiguration {
        TLSConfiguration.makeServerConfiguration(certificateChain: certificateChain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
    }
}
