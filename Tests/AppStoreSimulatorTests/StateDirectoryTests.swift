import AppStoreSimulator
import Foundation
import Testing

/// The PKI and issued key persist in the state directory and are reused on restart.
@Suite struct StateDirectoryTests {
    @Test func secondLoadReusesKeyAndPKI() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-sim-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try SimulatorStateDirectory(url: directory).loadOrCreate()
        #expect(first.created)
        let pem = try String(contentsOf: first.keyURL, encoding: .utf8)
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(first.keyURL.lastPathComponent == "SubscriptionKey_\(first.issuedKey.keyId).p8")
        let second = try SimulatorStateDirectory(url: directory).loadOrCreate()
        #expect(!second.created)
        #expect(second.issuedKey.keyId == first.issuedKey.keyId)
        #expect(second.issuedKey.issuerId == first.issuedKey.issuerId)
        #expect(second.issuedKey.pemRepresentation == first.issuedKey.pemRepresentation)
        #expect(second.pki.rootCertificateDER == first.pki.rootCertificateDER)
        #expect(try Data(contentsOf: second.rootCertificateURL) == first.pki.rootCertificateDER)
    }
}
