import AppStoreServer
import Foundation

/// The body of `PUT /v1/transactions/{transactionId}/facts`: what the app knows about a purchase,
/// every field optional (absent = unknown), checked against Apple's enums and ranges (422):
/// `deliveryStatus` one of Apple's five, `consumptionPercentage` in Apple's milliunits 0–100000,
/// `sessionsSincePurchase` 0 or more. `"final": true` says nothing more will be reported.
public struct TransactionFactsRequest: JSONRequestBody {
    public static let maximumBytes = 4 * 1024

    public var deliveryStatus: DeliveryStatus?
    public var consumptionPercentage: Int64?
    public var sampleContentProvided: Bool?
    public var sessionsSincePurchase: Int64?
    public var final: Bool

    public init(from decoder: any Decoder) throws {
        let fields = try JSONFields(
            decoder, allowed: ["deliveryStatus", "consumptionPercentage", "sampleContentProvided", "sessionsSincePurchase", "final"])
        deliveryStatus = try fields.string("deliveryStatus", maxLength: 64).map(DeliveryStatus.init(rawValue:))
        if let deliveryStatus, !deliveryStatus.isKnown {
            throw RequestBodyError.unprocessable("INVALID_FIELD", "'deliveryStatus' must be one of "
                + DeliveryStatus.knownValues.map(\.rawValue).joined(separator: ", "))
        }
        consumptionPercentage = try fields.integer("consumptionPercentage")
        if let consumptionPercentage, !(0...100_000).contains(consumptionPercentage) {
            throw RequestBodyError.unprocessable(
                "INVALID_FIELD", "'consumptionPercentage' is in Apple's milliunits, 0–100000 (67.5 % = 67500)")
        }
        sessionsSincePurchase = try fields.integer("sessionsSincePurchase")
        if let sessionsSincePurchase, sessionsSincePurchase < 0 {
            throw RequestBodyError.unprocessable("INVALID_FIELD", "'sessionsSincePurchase' must be 0 or more")
        }
        sampleContentProvided = try fields.bool("sampleContentProvided")
        final = try fields.bool("final") == true
    }
}
