/// What a consent-ledger entry was recorded for: a customer's app account token, or one
/// subscription or purchase chain (its originalTransactionId, covering all its renewals) for
/// purchases made without a token.
public enum ConsentKey: Sendable, Hashable {
    case appAccountToken(String)
    case originalTransactionId(String)
}

/// One entry of the consent ledger: whether the customer agreed to share consumption data with
/// Apple, when, through what and under which terms, recorded for an app account token or an
/// originalTransactionId (``ConsentKey``). Entries are never changed or removed; the newest by `at`
/// among the keys of a purchase is the customer's current answer.
public struct ConsentRecord: Sendable, Equatable {
    /// What the entry was recorded for (a lowercase UUID token, or an originalTransactionId).
    public var key: ConsentKey
    /// True: the customer consented; false: they refused or withdrew consent.
    public var consented: Bool
    /// When the customer answered (UNIX ms).
    public var at: Int64
    /// Where the answer came from (e.g. `settings-screen`, `refund-dialog`).
    public var source: String
    /// The version of the terms the customer agreed to, when the app tracks it.
    public var termsVersion: String?
    /// When Verdict recorded the entry (UNIX ms).
    public var recordedAt: Int64

    public init(key: ConsentKey, consented: Bool, at: Int64, source: String, termsVersion: String?, recordedAt: Int64) {
        self.key = key
        self.consented = consented
        self.at = at
        self.source = source
        self.termsVersion = termsVersion
        self.recordedAt = recordedAt
    }
}

extension ConsentKey {
    /// The token, when the key is one.
    public var appAccountToken: String? {
        if case .appAccountToken(let token) = self { token } else { nil }
    }

    /// The originalTransactionId, when the key is one.
    public var originalTransactionId: String? {
        if case .originalTransactionId(let id) = self { id } else { nil }
    }
}
