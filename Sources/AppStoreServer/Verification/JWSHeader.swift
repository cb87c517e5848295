import Foundation

/// The protected header fields of an App Store JWS that verification reads.
struct JWSHeader: Decodable, Sendable {
    /// The signature algorithm; Apple uses `ES256` only.
    var alg: String?
    /// The certificate chain, standard Base64 DER, leaf first.
    var x5c: [String]?

    /// Decodes the header JSON; a non-object or wrongly typed field is an invalid JWS.
    /// A repeated member name is refused too: Apple never sends one.
    static func decode(_ json: Data) throws(VerificationError) -> JWSHeader {
        if let name = JSONDuplicateKeys.firstDuplicate(in: json) {
            throw .invalidJWS("the header names \(VerificationError.quoted(name)) more than once")
        }
        do {
            return try JSONDecoder().decode(JWSHeader.self, from: json)
        } catch {
            throw .invalidJWS("the header is not a JSON object with a string alg and an x5c string array")
        }
    }
}
