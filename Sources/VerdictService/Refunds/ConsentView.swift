import VerdictStorage

/// The consent a decision relied on, as records and the API show it.
struct ConsentView: Codable, Sendable, Equatable {
    /// `recorded`, `assumed`, `refused` or `none`.
    var basis: String
    var consented: Bool?
    var at: Int64?
    var source: String?
    var termsVersion: String?
    var recordedAt: Int64?
    /// The key the entry was recorded under: the token, or the originalTransactionId.
    var appAccountToken: String?
    var originalTransactionId: String?

    init(basis: ConsumptionRequestRecord.ConsentBasis, entry: ConsentRecord?) {
        self.basis = basis.rawValue
        appAccountToken = entry?.key.appAccountToken
        originalTransactionId = entry?.key.originalTransactionId
        consented = entry?.consented
        at = entry?.at
        source = entry?.source
        termsVersion = entry?.termsVersion
        recordedAt = entry?.recordedAt
    }
}
