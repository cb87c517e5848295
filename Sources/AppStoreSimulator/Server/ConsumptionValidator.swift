import AppStoreServer
import Foundation

/// Validates a Send Consumption Information (V2) body the way Apple documents it, returning the
/// error Apple answers with for the first violated rule:
///
/// - body not a JSON object → 4000000
/// - `customerConsented` not `true` → 4000035
/// - `deliveryStatus` not one of the five values → 4000036
/// - `sampleContentProvided` not a boolean → 4000041
/// - `refundPreference` present but not `DECLINE`/`GRANT_FULL`/`GRANT_PRORATED` → 4000044
/// - `consumptionPercentage` present for an auto-renewable subscription → 4000209
/// - `consumptionPercentage` not an integer in 0…100000 → ``SimulatorAPIErrorCode/consumptionPercentageOutOfRange``
/// - `consumptionPercentage` non-zero while `deliveryStatus` is not `DELIVERED` →
///   ``SimulatorAPIErrorCode/undeliveredConsumptionPercentageNonZero``
/// - `GRANT_PRORATED` for a non-auto-renewable product without a percentage in 1…99999 →
///   ``SimulatorAPIErrorCode/consumptionPercentageOutOfRange``
struct ConsumptionValidator {
    let productType: ProductType?

    func validate(_ body: Data) -> Result<ConsumptionRequest, APIErrorResponse> {
        guard let object = JSONValue.parse(body)?.objectValue else { return .failure(.generalBadRequest) }
        guard object["customerConsented"]?.boolValue == true else { return .failure(.invalidCustomerConsented) }
        guard let deliveryText = object["deliveryStatus"]?.stringValue,
              case let deliveryStatus = DeliveryStatus(rawValue: deliveryText), deliveryStatus.isKnown
        else { return .failure(.invalidDeliveryStatus) }
        guard let sampleContentProvided = object["sampleContentProvided"]?.boolValue else {
            return .failure(.invalidSampleContentProvided)
        }
        var refundPreference: RefundPreference?
        if let value = object["refundPreference"], value != .null {
            guard let text = value.stringValue, RefundPreference(rawValue: text).isKnown else {
                return .failure(.invalidRefundPreference)
            }
            refundPreference = RefundPreference(rawValue: text)
        }
        let isAutoRenewable = productType == .autoRenewable
        var percentage: Int32?
        if let value = object["consumptionPercentage"], value != .null {
            if isAutoRenewable { return .failure(.consumptionPercentageAutoRenewable) }
            guard let number = value.integerValue, (0...100_000).contains(number) else {
                return .failure(.consumptionPercentageOutOfRange)
            }
            if deliveryStatus != .delivered && number != 0 { return .failure(.undeliveredPercentageNonZero) }
            percentage = Int32(number)
        }
        if refundPreference == .grantProrated, !isAutoRenewable {
            guard let percentage, (1...99_999).contains(percentage) else {
                return .failure(.consumptionPercentageOutOfRange)
            }
        }
        return .success(ConsumptionRequest(
            customerConsented: true,
            consumptionPercentage: percentage,
            deliveryStatus: deliveryStatus,
            refundPreference: refundPreference,
            sampleContentProvided: sampleContentProvided
        ))
    }
}
