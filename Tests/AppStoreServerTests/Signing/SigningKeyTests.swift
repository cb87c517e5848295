import AppStoreServer
import Crypto
import Foundation
import Testing

extension SigningTests {
    @Suite("SigningKey loading")
    struct SigningKeyTests {
        @Test func loadsApplePKCS8TestKeyMatchingItsPublicKey() throws {
            let key = try SigningFixtures.privateKey()
            #expect(key.publicKey.rawRepresentation == (try SigningFixtures.publicKey()).rawRepresentation)
        }

        @Test func toleratesWindowsLineEndingsAndSurroundingWhitespace() throws {
            let pem = try SigningFixtures.text("testSigningKey.p8").replacingOccurrences(of: "\n", with: "\r\n")
            let key = try SigningKey.load(pem: "\n  " + pem + "\r\n\r\n")
            #expect(key.publicKey.rawRepresentation == (try SigningFixtures.publicKey()).rawRepresentation)
        }

        @Test func loadsSEC1ECPrivateKey() throws {
            let pem = try SigningFixtures.text("testLeaf.key")
            #expect(pem.hasPrefix("-----BEGIN EC PRIVATE KEY-----"))
            let key = try SigningKey.load(pem: pem)
            let expected = try P256.Signing.PrivateKey(pemRepresentation: pem)
            #expect(key.rawRepresentation == expected.rawRepresentation)
        }

        @Test func rejectsTextThatIsNotPEM() {
            #expect(throws: SigningKeyError.notPEM) { try SigningKey.load(pem: "not a key") }
        }

        @Test func rejectsPEMWithoutMatchingEndLine() {
            let pem = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PUBLIC KEY-----"
            #expect(throws: SigningKeyError.notPEM) { try SigningKey.load(pem: pem) }
        }

        @Test func rejectsPublicKeyPEM() throws {
            let pem = try SigningFixtures.text("testSigningKey.pub.pem")
            #expect(throws: SigningKeyError.unsupportedPEMType("PUBLIC KEY")) { try SigningKey.load(pem: pem) }
        }

        @Test func rejectsP384Key() {
            let pem = P384.Signing.PrivateKey().pemRepresentation
            #expect(throws: SigningKeyError.invalidKey) { try SigningKey.load(pem: pem) }
        }

        @Test func rejectsMissingFileNamingOnlyThePath() {
            let url = URL(fileURLWithPath: "/nonexistent/AuthKey_TEST.p8")
            #expect(throws: SigningKeyError.unreadableFile(path: "/nonexistent/AuthKey_TEST.p8")) {
                try SigningKey.load(contentsOf: url)
            }
        }

        @Test func errorForCorruptKeyDoesNotEchoKeyMaterial() throws {
            let lines = try SigningFixtures.text("testSigningKey.p8").split(separator: "\n").map(String.init)
            // Truncate the body so it no longer parses, keeping real key bytes in the text.
            let corrupt = [lines[0], lines[1], lines[2], lines.last!].joined(separator: "\n")
            let error = try #require(throws: SigningKeyError.self) { try SigningKey.load(pem: corrupt) }
            #expect(error == .invalidKey)
            let rendered = "\(error) \(String(reflecting: error)) \(error.localizedDescription)"
            #expect(!rendered.contains(lines[1]))
            #expect(!rendered.contains(String(lines[1].prefix(16))))
            #expect(!rendered.contains(String(lines[2].prefix(16))))
        }
    }
}
