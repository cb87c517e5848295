/// One entry of the consent ledger: whether the customer with `appAccountToken` agreed to share
/// consumption data with Apple, when, through what and under which terms. Entries are never
/// changed or removed; the newest by `at` is the customer's current answer.
public struct ConsentRecord: Sendable, Equatable {
    /// The app account token (lowercase UUID) the app knows the customer by.
    public var appAccountToken: String
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

    public init(appAccountToken: String, consented: Bool, at: Int64, source: String, termsVersion: String?, recordedAt: Int64) {
        self.appAccountToken = appAccountToken
        self.consented = consented
        self.at = at
        self.source = source
        self.termsVersion = termsVersion
        self.recordedAt = recordedAt
    }
}
