/// The answer fields of a Send Consumption Information (V2) body, any of which may still be
/// unknown: the form ``conform(_:productType:)`` works on, shared by the rule engine (whose
/// decision may leave fields to the service) and ``ConsumptionRequest``.
public struct ConsumptionValues: Codable, Sendable, Hashable {
    /// A ``RefundPreference`` wire value (`DECLINE`, `GRANT_FULL`, `GRANT_PRORATED`); nil = omitted.
    public var refundPreference: String?
    /// Apple's `consumptionPercentage` in milliunits (50 % = 50000); nil = omitted.
    public var consumptionPercentage: Int64?
    /// A ``DeliveryStatus`` wire value; nil = not known yet.
    public var deliveryStatus: String?
    /// nil = not known yet.
    public var sampleContentProvided: Bool?

    public init(
        refundPreference: String? = nil,
        consumptionPercentage: Int64? = nil,
        deliveryStatus: String? = nil,
        sampleContentProvided: Bool? = nil
    ) {
        self.refundPreference = refundPreference
        self.consumptionPercentage = consumptionPercentage
        self.deliveryStatus = deliveryStatus
        self.sampleContentProvided = sampleContentProvided
    }

    /// The values of a complete body.
    public init(_ request: ConsumptionRequest) {
        self.init(
            refundPreference: request.refundPreference?.rawValue,
            consumptionPercentage: request.consumptionPercentage.map(Int64.init),
            deliveryStatus: request.deliveryStatus.rawValue,
            sampleContentProvided: request.sampleContentProvided)
    }
}
