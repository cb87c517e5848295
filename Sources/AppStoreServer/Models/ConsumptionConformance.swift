extension ConsumptionValues {
    /// The range Apple accepts for `consumptionPercentage`, in milliunits.
    public static let percentageRange: ClosedRange<Int64> = 0...100_000
    /// The range `GRANT_PRORATED` needs for a product that is not an auto-renewable subscription.
    public static let proratedPercentageRange: ClosedRange<Int64> = 1...99_999

    /// Makes `values` acceptable to Apple (Send Consumption Information V2) by the documented safe
    /// corrections, applied in this order, and lists each one made:
    ///
    /// 1. a `consumptionPercentage` outside 0…100000 is clamped into that range;
    /// 2. for an auto-renewable subscription a `consumptionPercentage` is omitted (Apple computes
    ///    it from the elapsed time; sending one is error 4000209);
    /// 3. when `deliveryStatus` is known and not `DELIVERED`, a non-zero `consumptionPercentage`
    ///    becomes 0;
    /// 4. `GRANT_PRORATED` for a known product type other than an auto-renewable subscription,
    ///    without a `consumptionPercentage` in 1…99999, is omitted: Apple then decides without a
    ///    preference (the percentage is kept).
    ///
    /// With `productType` nil, corrections 2 and 4 cannot be decided and are not made; the result
    /// is then only known to be acceptable once the product type is known. Values that break no
    /// rule come back unchanged with no corrections.
    public static func conform(
        _ values: ConsumptionValues, productType: ProductType?
    ) -> (ConsumptionValues, [ConsumptionCorrection]) {
        var result = values
        var corrections: [ConsumptionCorrection] = []

        func setPercentage(_ new: Int64?, _ reason: String) {
            corrections.append(ConsumptionCorrection(
                field: "consumptionPercentage", from: result.consumptionPercentage.map(String.init),
                to: new.map(String.init), reason: reason))
            result.consumptionPercentage = new
        }

        if let percentage = result.consumptionPercentage, !percentageRange.contains(percentage) {
            let clamped = min(max(percentage, percentageRange.lowerBound), percentageRange.upperBound)
            setPercentage(clamped, "consumptionPercentage must be within 0…100000 milliunits; clamped into range")
        }
        if productType == .autoRenewable, result.consumptionPercentage != nil {
            setPercentage(nil, "consumptionPercentage must be omitted for an auto-renewable subscription (Apple computes it)")
        }
        if let delivery = result.deliveryStatus, delivery != DeliveryStatus.delivered.rawValue,
           let percentage = result.consumptionPercentage, percentage != 0 {
            setPercentage(0, "consumptionPercentage must be 0 when deliveryStatus is \(delivery)")
        }
        if result.refundPreference == RefundPreference.grantProrated.rawValue, let productType,
           productType != .autoRenewable,
           !(result.consumptionPercentage.map(proratedPercentageRange.contains) ?? false) {
            let percentage = result.consumptionPercentage.map(String.init) ?? "omitted"
            corrections.append(ConsumptionCorrection(
                field: "refundPreference", from: result.refundPreference, to: nil,
                reason: "GRANT_PRORATED for a \(productType) purchase needs consumptionPercentage within 1…99999 "
                    + "(it is \(percentage)); omitted so Apple decides without a preference"))
            result.refundPreference = nil
        }
        return (result, corrections)
    }
}
