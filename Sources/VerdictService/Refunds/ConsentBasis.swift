import VerdictStorage

extension ConsumptionRequestRecord.ConsentBasis {
    /// The basis for sharing a customer's consumption data: their newest consent-ledger entry
    /// (`newest`), else `VERDICT_ASSUME_CONSENT`. An explicit refusal wins over assumed consent;
    /// a customer Verdict cannot identify (no app account token) has no ledger entry.
    static func basis(newest: ConsentRecord?, assumeConsent: Bool) -> Self {
        if let newest { return newest.consented ? .recorded : .refused }
        return assumeConsent ? .assumed : .none
    }

    /// Why nothing is sent on this basis, for the record; nil when sending is allowed.
    var refusal: String? {
        switch self {
        case .recorded, .assumed: nil
        case .refused: "the customer refused or withdrew consent to share consumption data"
        case .none: "no recorded consent to share consumption data (Apple: do not respond without it)"
        }
    }
}
