import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing
import X509

extension VerificationTests {
    /// The simulator's certificate hierarchy and signer.
    @Suite struct SimulatorPKITests {
        @Test func theHierarchyHasAppleShapedExtensions() throws {
            let pki = try TestValues.pki()
            let root = pki.rootCertificate, intermediate = pki.intermediateCertificate, leaf = pki.leafCertificate
            #expect(root.subject == root.issuer)
            #expect(intermediate.issuer == root.subject)
            #expect(leaf.issuer == intermediate.subject)
            #expect(try root.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: nil))
            #expect(try intermediate.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: 0))
            #expect(try leaf.extensions.basicConstraints == .notCertificateAuthority)
            #expect(try intermediate.extensions.keyUsage?.keyCertSign == true)
            #expect(try leaf.extensions.keyUsage?.digitalSignature == true)
            let intermediateMarker = try #require(intermediate.extensions[oid: AppStoreOIDPolicy.intermediateMarker])
            #expect(intermediateMarker.critical == false)
            #expect(Array(intermediateMarker.value) == [0x05, 0x00])
            let leafMarker = try #require(leaf.extensions[oid: AppStoreOIDPolicy.leafMarker])
            #expect(Array(leafMarker.value) == [0x05, 0x00])
            #expect(leaf.extensions[oid: AppStoreOIDPolicy.intermediateMarker] == nil)
            #expect(try Certificate(derEncoded: Array(pki.rootCertificateDER)) == root)
        }

        @Test func markersCanBeOmitted() throws {
            let pki = try TestValues.pki {
                $0.includeIntermediateMarker = false
                $0.includeLeafMarker = false
            }
            #expect(pki.intermediateCertificate.extensions[oid: AppStoreOIDPolicy.intermediateMarker] == nil)
            #expect(pki.leafCertificate.extensions[oid: AppStoreOIDPolicy.leafMarker] == nil)
        }

        @Test func theValidityWindowIsConfigurable() throws {
            let options = TestValues.simulatorOptions()
            let pki = try SimulatorPKI(options: options)
            #expect(pki.leafCertificate.notValidBefore == options.notValidBefore)
            #expect(pki.rootCertificate.notValidAfter == options.notValidAfter)
        }

        @Test func theSignerWritesAppleHeaders() throws {
            let pki = try TestValues.pki()
            let jws = try pki.signer().sign(TestValues.notification())
            let header = try JWSSurgery.headerObject(jws)
            #expect(header["alg"] as? String == "ES256")
            #expect(header["x5c"] as? [String] == [
                pki.leafCertificateDER.base64EncodedString(), pki.intermediateCertificateDER.base64EncodedString(),
                pki.rootCertificateDER.base64EncodedString(),
            ])
            let payload = try #require(Base64URL.decode(JWSSurgery.segments(jws)[1]))
            let decoded = try AppStoreJSON.decoder().decode(ResponseBodyV2DecodedPayload.self, from: payload)
            #expect(decoded == TestValues.notification())
        }

        @Test func aSavedHierarchyLoadsBackAndStillVerifies() async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-pki-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let original = try TestValues.pki()
            try original.save(to: directory)
            let loaded = try SimulatorPKI.load(from: directory)

            #expect(loaded.rootCertificateDER == original.rootCertificateDER)
            #expect(loaded.leafKey.rawRepresentation == original.leafKey.rawRepresentation)
            let rootFile = try Data(contentsOf: directory.appendingPathComponent(SimulatorPKI.FileName.rootCertificate))
            #expect(try RootCertificateLoader.derCertificates(from: rootFile) == [original.rootCertificateDER])
            let keyText = try String(contentsOf: directory.appendingPathComponent(SimulatorPKI.FileName.leafKey), encoding: .utf8)
            #expect(keyText.hasPrefix("-----BEGIN PRIVATE KEY-----"))

            let verifier = try TestValues.verifier(root: original.rootCertificateDER)
            let verified = try await verifier.verifyNotification(loaded.signer().sign(TestValues.notification()))
            #expect(verified.payload.data?.bundleId == TestValues.bundleId)
        }

        @Test func loadingMismatchedFilesFails() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-pki-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            try TestValues.pki().save(to: directory)
            let other = try TestValues.pki()
            try Data(other.leafKey.pemRepresentation.utf8).write(to: directory.appendingPathComponent(SimulatorPKI.FileName.leafKey))
            #expect(throws: SimulatorPKI.StorageError.self) { try SimulatorPKI.load(from: directory) }
        }

        @Test func loadingAnEmptyDirectoryFails() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-pki-\(UUID().uuidString)")
            #expect(throws: SimulatorPKI.StorageError.unreadable(file: SimulatorPKI.FileName.rootCertificate)) {
                try SimulatorPKI.load(from: directory)
            }
        }
    }
}
