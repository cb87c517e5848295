import AppStoreServer
import Foundation

/// Validates a Send Consumption Information V1 body (`ConsumptionRequestV1`) the way Apple
/// documents it, returning the error Apple answers with for the first violated rule. Every field
/// is required but `refundPreference`, and each must have its documented type and range:
///
/// - body not a JSON object → 4000000
/// - `customerConsented` not `true` → 4000035
/// - `consumptionStatus` not 0…3 → 4000034
/// - `platform` not 0…2 → 4000039
/// - `sampleContentProvided` not a boolean → 4000041
/// - `deliveryStatus` not 0…5 → 4000036
/// - `appAccountToken` neither a UUID nor an empty string → 4000033
/// - `accountTenure` not 0…7 → 4000032
/// - `playTime` not 0…7 → 4000040
/// - `lifetimeDollarsRefunded` not 0…7 → 4000038
/// - `lifetimeDollarsPurchased` not 0…7 → 4000037
/// - `userStatus` not 0…4 → 4000042
/// - `refundPreference` present but not 0…3 → 4000044
struct ConsumptionV1Validator {
    /// The integer fields after `appAccountToken`, in Apple's order, with their ranges and errors.
    private static let integerFields: [(name: String, range: ClosedRange<Int64>, error: APIErrorResponse)] = [
        ("accountTenure", 0...7, .invalidAccountTenure),
        ("playTime", 0...7, .invalidPlayTime),
        ("lifetimeDollarsRefunded", 0...7, .invalidLifetimeDollarsRefunded),
        ("lifetimeDollarsPurchased", 0...7, .invalidLifetimeDollarsPurchased),
        ("userStatus", 0...4, .invalidUserStatus),
    ]

    /// Nil when `body` is a valid V1 body, else the error answering it.
    func validate(_ body: Data) -> APIErrorResponse? {
        guard let object = JSONValue.parse(body)?.objectValue else { return .generalBadRequest }
        func integer(_ name: String, in range: ClosedRange<Int64>) -> Bool {
            object[name]?.integerValue.map { range.contains($0) } ?? false
        }
        guard object["customerConsented"]?.boolValue == true else { return .invalidCustomerConsented }
        guard integer("consumptionStatus", in: 0...3) else { return .invalidConsumptionStatus }
        guard integer("platform", in: 0...2) else { return .invalidPlatform }
        guard object["sampleContentProvided"]?.boolValue != nil else { return .invalidSampleContentProvided }
        guard integer("deliveryStatus", in: 0...5) else { return .invalidDeliveryStatus }
        guard let token = object["appAccountToken"]?.stringValue, token.isEmpty || UUID(uuidString: token) != nil else {
            return .invalidAppAccountToken
        }
        for field in Self.integerFields where !integer(field.name, in: field.range) { return field.error }
        if let preference = object["refundPreference"], preference != .null,
           !(preference.integerValue.map { (0...3).contains($0) } ?? false) {
            return .invalidRefundPreference
        }
        return nil
    }
}
