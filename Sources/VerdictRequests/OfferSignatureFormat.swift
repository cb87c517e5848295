/// Which promotional-offer signatures a request asks for: the V1 signature, the JWS, or both.
public enum OfferSignatureFormat: String, Sendable, CaseIterable {
    case v1, jws, both

    /// The format `text` asks for (`both` when absent); 400 `INVALID_FIELD` for anything else.
    public static func requested(_ text: String?) throws(RequestBodyError) -> Self {
        guard let format = Self(rawValue: text ?? "both") else {
            throw .badRequest("INVALID_FIELD", "'format' must be one of v1, jws, both")
        }
        return format
    }
}
