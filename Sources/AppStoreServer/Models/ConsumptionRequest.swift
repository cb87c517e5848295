/// The body of Send Consumption Information (V2):
/// `PUT /inApps/v2/transactions/consumption/{transactionId}`.
///
/// Absent optionals are omitted from the JSON (never `null`).
public struct ConsumptionRequest: Codable, Hashable, Sendable {
    /// Whether the customer consented to sharing consumption data; Apple rejects anything but `true`
    /// (4000035). Without consent, don't send the request at all.
    public var customerConsented: Bool
    /// Share of the purchase consumed, in milliunits from 0 to 100000 (67.932 % = 67932).
    /// Omit for auto-renewable subscriptions; 0 when not delivered; within (0, 100000) with
    /// `GRANT_PRORATED`.
    public var consumptionPercentage: Int32?
    public var deliveryStatus: DeliveryStatus
    public var refundPreference: RefundPreference?
    /// Whether a free sample, trial or information about the content was provided before purchase.
    public var sampleContentProvided: Bool

    public init(
        customerConsented: Bool,
        consumptionPercentage: Int32? = nil,
        deliveryStatus: DeliveryStatus,
        refundPreference: RefundPreference? = nil,
        sampleContentProvided: Bool
    ) {
        self.customerConsented = customerConsented
        self.consumptionPercentage = consumptionPercentage
        self.deliveryStatus = deliveryStatus
        self.refundPreference = refundPreference
        self.sampleContentProvided = sampleContentProvided
    }
}
