import AsyncHTTPClient
import Crypto
import Foundation
import HummingbirdTLS
import SwiftASN1
import Testing
import VerdictService
import X509

/// `VERDICT_TLS_CERTIFICATE_FILE` and `VERDICT_TLS_KEY_FILE`: the service answers HTTPS, verified
/// by a real TLS client against the certificate's own root, and plain HTTP gets no answer.
@Suite struct TLSTests {
    /// A self-signed certificate for 127.0.0.1 and localhost, and its key, as PEM files in `directory`.
    static func identity(in directory: URL) throws -> (certificate: URL, key: URL, pem: String) {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("Verdict TLS test") }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(3600), issuer: name, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                SubjectAlternativeNames([.dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
            },
            issuerPrivateKey: .init(key))
        let pem = try certificate.serializeAsPEM().pemString
        let certificateFile = directory.appendingPathComponent("tls-cert.pem")
        let keyFile = directory.appendingPathComponent("tls-key.pem")
        try Data(pem.utf8).write(to: certificateFile)
        try Data(key.pemRepresentation.utf8).write(to: keyFile)
        return (certificateFile, keyFile, pem)
    }

    @Test func theServiceAnswersHTTPSWithTheConfiguredCertificate() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try Self.identity(in: directory)
        try await ServiceHarness.with(.sqlite, extraSettings: [
            "VERDICT_TLS_CERTIFICATE_FILE": files.certificate.path, "VERDICT_TLS_KEY_FILE": files.key.path,
        ]) { harness in
            let port = try #require(URL(string: harness.baseURL)?.port)
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(files.pem.utf8)))
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
            do {
                let response = try await client.execute(HTTPClientRequest(url: "https://127.0.0.1:\(port)/healthz"), timeout: .seconds(10))
                #expect(response.status == .ok)
                var rules = HTTPClientRequest(url: "https://localhost:\(port)/v1/rules")
                rules.headers.add(name: "Authorization", value: "Bearer \(ServiceHarness.token)")
                #expect(try await client.execute(rules, timeout: .seconds(10)).status == .ok)
            } catch {
                try? await client.shutdown()
                throw error
            }
            try await client.shutdown()

            // A client that does not trust the certificate is refused by its own TLS check, and
            // plain HTTP on the TLS port gets no HTTP answer.
            await #expect(throws: (any Error).self) {
                _ = try await HTTPClient.shared.execute(HTTPClientRequest(url: "https://127.0.0.1:\(port)/healthz"), timeout: .seconds(10))
            }
            let plain = try RawConnection(port: port)
            plain.write("GET /healthz HTTP/1.1\r\nHost: verdict\r\n\r\n")
            let (text, _) = await plain.readUntilClosed(timeout: .seconds(5))
            #expect(!text.hasPrefix("HTTP/1.1 200"), "\(text.prefix(100))")
        }
    }
}
