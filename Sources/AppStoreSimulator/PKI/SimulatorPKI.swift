import AppStoreServer
import Crypto
import Foundation
import SwiftASN1
import X509

/// A private certificate hierarchy shaped like Apple's App Store signing chain.
///
/// Root CA → intermediate (carrying Apple's WWDR marker extension `1.2.840.113635.100.6.2.1`) →
/// leaf (carrying the receipt-signing marker `1.2.840.113635.100.6.11.1`), all P-256 keys.
/// Payloads signed with ``signer()`` verify with a `SignedDataVerifier` that trusts
/// ``rootCertificateDER``, exactly as Apple's payloads verify against Apple Root CA - G3.
///
/// The ``Options`` can produce deliberately broken chains (a missing marker, an expired window)
/// for negative tests.
public struct SimulatorPKI: Sendable {
    /// How the hierarchy is issued.
    public struct Options: Sendable {
        /// Start of the validity window of all three certificates.
        public var notValidBefore: Date
        /// End of the validity window of all three certificates.
        public var notValidAfter: Date
        /// Overrides the leaf's validity start (defaults to ``notValidBefore``).
        public var leafNotValidBefore: Date?
        /// Overrides the leaf's validity end (defaults to ``notValidAfter``).
        public var leafNotValidAfter: Date?
        /// Whether the intermediate carries the WWDR marker extension (false only for negative tests).
        public var includeIntermediateMarker: Bool
        /// Whether the leaf carries the receipt-signing marker extension (false only for negative tests).
        public var includeLeafMarker: Bool
        /// An OCSP responder URL written into the intermediate's and leaf's Authority Information
        /// Access extension, so online verification queries it; nil writes no AIA.
        public var ocspResponderURL: String?
        /// Prefix of the certificates' common names.
        public var name: String

        /// Options for a correct hierarchy valid from an hour ago for ten years.
        public init(
            notValidBefore: Date = Date().addingTimeInterval(-3600),
            notValidAfter: Date = Date().addingTimeInterval(10 * 365 * 86400),
            leafNotValidBefore: Date? = nil,
            leafNotValidAfter: Date? = nil,
            includeIntermediateMarker: Bool = true,
            includeLeafMarker: Bool = true,
            ocspResponderURL: String? = nil,
            name: String = "Verdict Simulator"
        ) {
            self.notValidBefore = notValidBefore
            self.notValidAfter = notValidAfter
            self.leafNotValidBefore = leafNotValidBefore
            self.leafNotValidAfter = leafNotValidAfter
            self.includeIntermediateMarker = includeIntermediateMarker
            self.includeLeafMarker = includeLeafMarker
            self.ocspResponderURL = ocspResponderURL
            self.name = name
        }
    }

    /// The self-signed root CA.
    public let rootCertificate: Certificate
    /// The intermediate CA, issued by the root.
    public let intermediateCertificate: Certificate
    /// The signing leaf, issued by the intermediate.
    public let leafCertificate: Certificate
    /// The root CA's private key.
    public let rootKey: P256.Signing.PrivateKey
    /// The intermediate CA's private key.
    public let intermediateKey: P256.Signing.PrivateKey
    /// The leaf's private key; it signs the JWS payloads.
    public let leafKey: P256.Signing.PrivateKey

    /// Issues a fresh hierarchy with new random keys.
    public init(options: Options = Options()) throws {
        let rootKey = P256.Signing.PrivateKey()
        let intermediateKey = P256.Signing.PrivateKey()
        let leafKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName {
            CountryName("US")
            OrganizationName(options.name)
            CommonName("\(options.name) Root CA")
        }
        let intermediateName = try DistinguishedName {
            CountryName("US")
            OrganizationName(options.name)
            CommonName("\(options.name) Worldwide Developer Relations CA")
        }
        let rootPublicKey = Certificate.PublicKey(rootKey.publicKey)
        let intermediatePublicKey = Certificate.PublicKey(intermediateKey.publicKey)

        let root = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: rootPublicKey,
            notValidBefore: options.notValidBefore,
            notValidAfter: options.notValidAfter,
            issuer: rootName,
            subject: rootName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: rootPublicKey)
            },
            issuerPrivateKey: Certificate.PrivateKey(rootKey)
        )
        let intermediate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: intermediatePublicKey,
            notValidBefore: options.notValidBefore,
            notValidAfter: options.notValidAfter,
            issuer: rootName,
            subject: intermediateName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: intermediatePublicKey)
                AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: rootPublicKey).keyIdentifier)
                if options.includeIntermediateMarker {
                    Self.markerExtension(AppStoreOIDPolicy.intermediateMarker)
                }
                if let url = options.ocspResponderURL {
                    Self.ocspAccess(url)
                }
            },
            issuerPrivateKey: Certificate.PrivateKey(rootKey)
        )
        let leaf = try Self.issueLeaf(
            publicKey: Certificate.PublicKey(leafKey.publicKey),
            intermediate: intermediate,
            intermediateKey: intermediateKey,
            options: options
        )
        try self.init(
            rootCertificate: root, intermediateCertificate: intermediate, leafCertificate: leaf,
            rootKey: rootKey, intermediateKey: intermediateKey, leafKey: leafKey
        )
    }

    /// Assembles a hierarchy from existing parts (see ``load(from:)``).
    public init(
        rootCertificate: Certificate, intermediateCertificate: Certificate, leafCertificate: Certificate,
        rootKey: P256.Signing.PrivateKey, intermediateKey: P256.Signing.PrivateKey, leafKey: P256.Signing.PrivateKey
    ) throws {
        self.rootCertificateDER = try Self.der(rootCertificate)
        self.intermediateCertificateDER = try Self.der(intermediateCertificate)
        self.leafCertificateDER = try Self.der(leafCertificate)
        self.rootCertificate = rootCertificate
        self.intermediateCertificate = intermediateCertificate
        self.leafCertificate = leafCertificate
        self.rootKey = rootKey
        self.intermediateKey = intermediateKey
        self.leafKey = leafKey
    }

    /// Issues another leaf under this hierarchy's intermediate for an arbitrary public key (for
    /// example a P-384 key in a negative test), with the marker and validity the options say.
    /// Returns the leaf DER-encoded.
    public func issueLeaf(publicKey: Certificate.PublicKey, options: Options = Options()) throws -> Data {
        try Self.der(
            Self.issueLeaf(
                publicKey: publicKey, intermediate: intermediateCertificate, intermediateKey: intermediateKey,
                options: options
            )
        )
    }

    /// The root certificate, DER-encoded: what a verifier must trust.
    public let rootCertificateDER: Data
    /// The intermediate certificate, DER-encoded.
    public let intermediateCertificateDER: Data
    /// The leaf certificate, DER-encoded.
    public let leafCertificateDER: Data

    /// A signer that signs with the leaf key and sends the chain `[leaf, intermediate, root]`.
    public func signer() -> AppStoreSigner {
        AppStoreSigner(
            privateKey: leafKey,
            certificateChain: [leafCertificateDER, intermediateCertificateDER, rootCertificateDER]
        )
    }

    // MARK: - Issuing helpers

    private static func issueLeaf(
        publicKey: Certificate.PublicKey,
        intermediate: Certificate,
        intermediateKey: P256.Signing.PrivateKey,
        options: Options
    ) throws -> Certificate {
        let leafName = try DistinguishedName {
            CountryName("US")
            OrganizationName(options.name)
            CommonName("\(options.name) App Store Receipt Signing")
        }
        return try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: publicKey,
            notValidBefore: options.leafNotValidBefore ?? options.notValidBefore,
            notValidAfter: options.leafNotValidAfter ?? options.notValidAfter,
            issuer: intermediate.subject,
            subject: leafName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                SubjectKeyIdentifier(hash: publicKey)
                AuthorityKeyIdentifier(
                    keyIdentifier: SubjectKeyIdentifier(hash: intermediate.publicKey).keyIdentifier
                )
                if options.includeLeafMarker {
                    markerExtension(AppStoreOIDPolicy.leafMarker)
                }
                if let url = options.ocspResponderURL {
                    ocspAccess(url)
                }
            },
            issuerPrivateKey: Certificate.PrivateKey(intermediateKey)
        )
    }

    /// A non-critical extension whose value is ASN.1 NULL, like Apple's marker extensions.
    private static func markerExtension(_ oid: ASN1ObjectIdentifier) -> Certificate.Extension {
        Certificate.Extension(oid: oid, critical: false, value: [0x05, 0x00])
    }

    private static func ocspAccess(_ url: String) -> AuthorityInformationAccess {
        AuthorityInformationAccess([
            .init(method: .ocspServer, location: .uniformResourceIdentifier(url))
        ])
    }

    static func der(_ certificate: Certificate) throws -> Data {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return Data(serializer.serializedBytes)
    }
}
