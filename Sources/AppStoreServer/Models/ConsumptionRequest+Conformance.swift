extension ConsumptionRequest {
    /// This body made acceptable to Apple for a purchase of `productType`, with the corrections
    /// made: ``ConsumptionValues/conform(_:productType:)`` applied to the body's answer fields.
    public func conformed(productType: ProductType?) -> (ConsumptionRequest, [ConsumptionCorrection]) {
        let (values, corrections) = ConsumptionValues.conform(ConsumptionValues(self), productType: productType)
        guard !corrections.isEmpty else { return (self, []) }
        var request = self
        // `conform` keeps a percentage within 0…100000, which always fits.
        request.consumptionPercentage = values.consumptionPercentage.map { Int32($0) }
        request.refundPreference = values.refundPreference.map(RefundPreference.init(rawValue:))
        return (request, corrections)
    }
}
