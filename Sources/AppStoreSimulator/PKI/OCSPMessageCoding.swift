import Crypto
import Foundation
import SwiftASN1
import X509

// The DER of the OCSP messages (RFC 6960 §4) the simulator's responder reads and writes.
// swift-certificates keeps its OCSP types internal, so the few structures needed are coded here
// with SwiftASN1.

/// Object identifiers of the OCSP messages.
enum OCSPObjectIdentifiers {
    /// `id-pkix-ocsp-basic`: the response type of a `BasicOCSPResponse`.
    static let basicResponse: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 48, 1, 1]
    /// `id-pkix-ocsp-nonce`: the nonce extension, echoed from request to response.
    static let nonce: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 48, 1, 2]
    /// SHA-1, the hash of swift-certificates' (and most clients') `CertID`.
    static let sha1: ASN1ObjectIdentifier = [1, 3, 14, 3, 2, 26]
    /// SHA-256.
    static let sha256: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 2, 1]
    /// `ecdsa-with-SHA256`: how the responder signs.
    static let ecdsaWithSHA256: ASN1ObjectIdentifier = [1, 2, 840, 10045, 4, 3, 2]
}

/// A malformed OCSP request.
struct OCSPMessageError: Error, CustomStringConvertible {
    let description: String
}

/// One certificate asked about (`CertID`): issuer name and key hashes plus the serial number.
struct OCSPCertificateID: Sendable {
    /// The whole `CertID` as received; the response repeats it byte for byte.
    let encoded: ASN1Node
    /// The hash algorithm of the two issuer hashes.
    let hashAlgorithm: ASN1ObjectIdentifier
    /// Hash of the DER of the issuer's subject name.
    let issuerNameHash: [UInt8]
    /// Hash of the issuer's public key bits.
    let issuerKeyHash: [UInt8]
    /// The serial number's INTEGER content bytes, without leading zero bytes.
    let serialNumber: [UInt8]

    init(node: ASN1Node) throws {
        encoded = node
        (hashAlgorithm, issuerNameHash, issuerKeyHash, serialNumber) = try DER.sequence(node, identifier: .sequence) {
            nodes in
            guard let algorithmNode = nodes.next() else { throw OCSPMessageError(description: "CertID without hashAlgorithm") }
            let algorithm = try DER.sequence(algorithmNode, identifier: .sequence) { fields in
                let oid = try ASN1ObjectIdentifier(derEncoded: &fields)
                while fields.next() != nil {}
                return oid
            }
            let nameHash = try ASN1OctetString(derEncoded: &nodes)
            let keyHash = try ASN1OctetString(derEncoded: &nodes)
            let serial = try ArraySlice<UInt8>(derEncoded: &nodes)
            return (algorithm, Array(nameHash.bytes), Array(keyHash.bytes), Self.trimmed(serial))
        }
    }

    /// Integer bytes without leading zero bytes, so encodings of one serial number compare equal.
    static func trimmed(_ bytes: some Collection<UInt8>) -> [UInt8] {
        Array(bytes.drop { $0 == 0 })
    }

    /// Whether this `CertID` names a certificate issued by `issuer` (name and key hashes match).
    func isIssued(by issuer: Certificate) throws -> Bool {
        var serializer = DER.Serializer()
        try serializer.serialize(issuer.subject)
        let name = serializer.serializedBytes
        let key = Array(issuer.publicKey.subjectPublicKeyInfoBytes)
        switch hashAlgorithm {
        case OCSPObjectIdentifiers.sha1:
            return Array(Insecure.SHA1.hash(data: name)) == issuerNameHash
                && Array(Insecure.SHA1.hash(data: key)) == issuerKeyHash
        case OCSPObjectIdentifiers.sha256:
            return Array(SHA256.hash(data: name)) == issuerNameHash && Array(SHA256.hash(data: key)) == issuerKeyHash
        default:
            return false
        }
    }
}

/// An `OCSPRequest` as far as a responder needs it: the certificates asked about and the nonce.
/// A signature on the request (optional in RFC 6960) is ignored.
struct ParsedOCSPRequest: Sendable {
    /// The `CertID` of every single request, in order.
    let certificateIDs: [OCSPCertificateID]
    /// The request's nonce extension, if any.
    let nonce: Certificate.Extension?

    init(derEncoded bytes: [UInt8]) throws {
        let root = try DER.parse(bytes)
        (certificateIDs, nonce) = try DER.sequence(root, identifier: .sequence) { nodes in
            guard let tbsRequest = nodes.next() else { throw OCSPMessageError(description: "OCSPRequest without tbsRequest") }
            while nodes.next() != nil {}
            return try Self.parseTBSRequest(tbsRequest)
        }
        guard !certificateIDs.isEmpty else { throw OCSPMessageError(description: "the OCSP request asks about no certificate") }
    }

    private static func parseTBSRequest(_ node: ASN1Node) throws -> ([OCSPCertificateID], Certificate.Extension?) {
        try DER.sequence(node, identifier: .sequence) { nodes in
            _ = try DER.optionalExplicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) { $0 }  // version
            _ = try DER.optionalExplicitlyTagged(&nodes, tagNumber: 1, tagClass: .contextSpecific) { $0 }  // requestorName
            guard let list = nodes.next() else { throw OCSPMessageError(description: "TBSRequest without requestList") }
            let ids = try DER.sequence(list, identifier: .sequence) { requests in
                var ids: [OCSPCertificateID] = []
                while let request = requests.next() {
                    ids.append(try DER.sequence(request, identifier: .sequence) { fields in
                        guard let certID = fields.next() else { throw OCSPMessageError(description: "Request without reqCert") }
                        while fields.next() != nil {}  // singleRequestExtensions
                        return try OCSPCertificateID(node: certID)
                    })
                }
                return ids
            }
            let extensions = try DER.optionalExplicitlyTagged(&nodes, tagNumber: 2, tagClass: .contextSpecific) { node in
                try DER.sequence(of: Certificate.Extension.self, identifier: .sequence, rootNode: node)
            }
            return (ids, extensions?.first { $0.oid == OCSPObjectIdentifiers.nonce })
        }
    }
}

/// Writes DER `OCSPResponse`s.
enum OCSPResponseEncoder {
    /// `OCSPResponseStatus` values (RFC 6960 §4.2.1).
    enum Status: Int {
        case successful = 0
        case malformedRequest = 1
        case internalError = 2
        case tryLater = 3
        case unauthorized = 6
    }

    /// The answer for one certificate.
    struct SingleAnswer {
        /// The `CertID` asked about.
        let certificateID: OCSPCertificateID
        /// When the certificate was revoked; nil means good.
        let revokedAt: Date?
    }

    /// An unsuccessful response: just the status, no response bytes.
    static func unsuccessful(_ status: Status) -> [UInt8] {
        var serializer = DER.Serializer()
        try? serializer.appendConstructedNode(identifier: .sequence) { coder in
            try status.rawValue.serialize(into: &coder, withIdentifier: .enumerated)
        }
        return serializer.serializedBytes
    }

    /// A successful response carrying a `BasicOCSPResponse` identified by the signer's name
    /// (`responderID` byName) and signed ECDSA-SHA256 with `signingKey`; `nonce` is echoed.
    static func successful(
        answers: [SingleAnswer], responderName: DistinguishedName, signingKey: P256.Signing.PrivateKey,
        producedAt: Date, nextUpdate: Date, nonce: Certificate.Extension?
    ) throws -> [UInt8] {
        var tbs = DER.Serializer()
        try tbs.appendConstructedNode(identifier: .sequence) { coder in
            // version v1 is the DEFAULT and therefore absent.
            try coder.serialize(explicitlyTaggedWithTagNumber: 1, tagClass: .contextSpecific) { coder in
                try coder.serialize(responderName)
            }
            try coder.serialize(generalizedTime(producedAt))
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                for answer in answers {
                    try serialize(answer, thisUpdate: producedAt, nextUpdate: nextUpdate, into: &coder)
                }
            }
            if let nonce {
                try coder.serialize(explicitlyTaggedWithTagNumber: 1, tagClass: .contextSpecific) { coder in
                    try coder.serializeSequenceOf([nonce])
                }
            }
        }
        let tbsBytes = tbs.serializedBytes
        let signature = try signingKey.signature(for: tbsBytes).derRepresentation

        var basic = DER.Serializer()
        try basic.appendConstructedNode(identifier: .sequence) { coder in
            coder.serializeRawBytes(tbsBytes)
            try coder.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(OCSPObjectIdentifiers.ecdsaWithSHA256)
            }
            try coder.serialize(ASN1BitString(bytes: ArraySlice(signature)))
        }
        var response = DER.Serializer()
        try response.appendConstructedNode(identifier: .sequence) { coder in
            try Status.successful.rawValue.serialize(into: &coder, withIdentifier: .enumerated)
            try coder.serialize(explicitlyTaggedWithTagNumber: 0, tagClass: .contextSpecific) { coder in
                try coder.appendConstructedNode(identifier: .sequence) { coder in
                    try coder.serialize(OCSPObjectIdentifiers.basicResponse)
                    try coder.serialize(ASN1OctetString(contentBytes: ArraySlice(basic.serializedBytes)))
                }
            }
        }
        return response.serializedBytes
    }

    /// `SingleResponse ::= SEQUENCE { certID, certStatus, thisUpdate, nextUpdate [0] EXPLICIT }`.
    private static func serialize(
        _ answer: SingleAnswer, thisUpdate: Date, nextUpdate: Date, into coder: inout DER.Serializer
    ) throws {
        try coder.appendConstructedNode(identifier: .sequence) { coder in
            coder.serialize(answer.certificateID.encoded)
            if let revokedAt = answer.revokedAt {
                // revoked [1] IMPLICIT RevokedInfo { revocationTime } (no reason: "unspecified").
                try coder.appendConstructedNode(identifier: ASN1Identifier(tagWithNumber: 1, tagClass: .contextSpecific)) {
                    coder in
                    try coder.serialize(generalizedTime(revokedAt))
                }
            } else {
                // good [0] IMPLICIT NULL
                ASN1Null().serialize(
                    into: &coder, withIdentifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific))
            }
            try coder.serialize(generalizedTime(thisUpdate))
            try coder.serialize(explicitlyTaggedWithTagNumber: 0, tagClass: .contextSpecific) { coder in
                try coder.serialize(generalizedTime(nextUpdate))
            }
        }
    }

    /// A whole-second UTC `GeneralizedTime`.
    static func generalizedTime(_ date: Date) throws -> GeneralizedTime {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return try GeneralizedTime(
            year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1,
            hours: parts.hour ?? 0, minutes: parts.minute ?? 0, seconds: parts.second ?? 0, fractionalSeconds: 0)
    }
}
