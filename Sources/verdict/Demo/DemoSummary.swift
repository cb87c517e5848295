/// What the demo scenario decided, case by case, in a form a test (or the closing endpoint
/// guide) can read without parsing the printed text.
struct DemoSummary: Sendable, Hashable {
    /// Every case in the order played: the first app's offer cases, refund cases, cancel page and
    /// team, then the second app's case.
    var cases: [DemoCaseResult]
    /// The UUID of one notification the service received (the first of the scenario).
    var sampleNotificationUUID: String?

    /// The case named `name` (``DemoCaseResult/name``).
    func result(_ name: String) -> DemoCaseResult? {
        cases.first { $0.name == name }
    }

    /// The offer cases.
    var offers: [DemoCaseResult] { cases.filter { $0.kind == .offer } }
    /// The refund cases.
    var refunds: [DemoCaseResult] { cases.filter { $0.kind == .refund } }
    /// The cancel-page cases.
    var realtime: [DemoCaseResult] { cases.filter { $0.kind == .realtime } }
}

/// One case of the demo scenario and what the service decided for it.
struct DemoCaseResult: Sendable, Hashable {
    /// A retention offer (auto-renew off, expiry), a refund request (consumption request), or
    /// the App Store's cancel page (a realtime request).
    enum Kind: String, Sendable, Hashable {
        case offer, refund, realtime
    }

    /// A stable name: `annual-full-price`, `monthly-loyal-jpy`, `free-trial-only`, `lapsed-winback`,
    /// `accidental-purchase`, `undelivered-credits`, `heavy-subscriber`, `no-consent`, `cancel-page`,
    /// `team-seat-reduction`, `team-member-refund`, then the second app's `tempo-annual-full-price`; an
    /// offer or cancel-page case's held-out customer is `<name>-held-out`.
    var name: String
    /// The bundle id of the app the case is about.
    var bundleId: String?
    /// The case's title as printed.
    var title: String
    var kind: Kind
    var productId: String
    var originalTransactionId: String
    /// For refunds the transaction asked about; for offers the subscription's latest one.
    var transactionId: String
    /// The customer's appAccountToken, when the purchase carried one.
    var appAccountToken: String?
    /// The deciding rule (nil: no rule matched or a veto blocked).
    var ruleId: String?
    /// Offers: the decision record's id.
    var decisionId: String?
    /// Offers: the offer made (or, held out, the one it would have been).
    var offerId: String?
    /// Offers: `PROMOTIONAL` or `WIN_BACK`.
    var offerType: String?
    /// Offers: whether the customer is in the holdout group.
    var heldOut: Bool?
    /// Offers: whether the pending offer came back signed; cancel page: whether the answer
    /// carried a signed offer.
    var signed: Bool?
    /// Offers: the key id of the pending offer's signature (the app's In-App Purchase key).
    var keyIdentifier: String?
    /// Refunds: the record's state (`sent`, `not_sent`, …).
    var state: String?
    /// Refunds: the veto that stopped an answer.
    var blockedBy: String?
    /// Refunds: the consent the decision relied on (`recorded`, `none`, …).
    var consentBasis: String?
    /// Refunds: Apple's outcome when the scenario had Apple decide (`granted`, `declined`, …).
    var outcome: String?
}
