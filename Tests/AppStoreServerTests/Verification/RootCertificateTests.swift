import AppStoreServer
import AppStoreSimulator
import Crypto
import Foundation
import Testing
import X509

extension VerificationTests {
    /// The embedded Apple root and the DER/PEM root loader.
    @Suite struct RootCertificateTests {
        @Test func appleRootCAG3HasThePublishedFingerprint() {
            let digest = SHA256.hash(data: AppleRootCertificates.appleRootCAG3).map { String(format: "%02x", $0) }.joined()
            #expect(digest == "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179")
        }

        @Test func appleRootCAG3IsTheG3Root() throws {
            let certificate = try Certificate(derEncoded: Array(AppleRootCertificates.appleRootCAG3))
            #expect(certificate.subject.description.contains("Apple Root CA - G3"))
            #expect(certificate.subject == certificate.issuer)
        }

        @Test func loaderAcceptsDER() throws {
            let der = try AppleFixtures.testCA()
            #expect(try RootCertificateLoader.derCertificates(from: der) == [der])
        }

        @Test func loaderAcceptsPEMWithSeveralCertificates() throws {
            let first = try Certificate(derEncoded: Array(AppleRootCertificates.appleRootCAG3))
            let second = try Certificate(derEncoded: Array(AppleFixtures.testCA()))
            let pem = try first.serializeAsPEM().pemString + "\n" + second.serializeAsPEM().pemString + "\n"
            let loaded = try RootCertificateLoader.derCertificates(from: Data(pem.utf8))
            #expect(loaded == [AppleRootCertificates.appleRootCAG3, try AppleFixtures.testCA()])
        }

        @Test func loaderRejectsGarbage() {
            #expect(throws: RootCertificateLoader.LoadError.notACertificate) {
                try RootCertificateLoader.derCertificates(from: Data("hello".utf8))
            }
        }

        @Test func loaderRejectsAnEmptyFile() {
            #expect(throws: RootCertificateLoader.LoadError.empty) { try RootCertificateLoader.derCertificates(from: Data()) }
        }

        @Test func loaderRejectsAPEMKeyWithoutCertificates() throws {
            let pem = P256.Signing.PrivateKey().pemRepresentation
            #expect(throws: RootCertificateLoader.LoadError.notACertificate) {
                try RootCertificateLoader.derCertificates(from: Data(pem.utf8))
            }
        }

        @Test func loaderRejectsACorruptPEMCertificate() {
            let pem = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"
            #expect(throws: RootCertificateLoader.LoadError.invalidPEMCertificate(index: 0)) {
                try RootCertificateLoader.derCertificates(from: Data(pem.utf8))
            }
        }
    }
}
