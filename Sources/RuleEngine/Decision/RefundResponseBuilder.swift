/// Evaluates a compiled `respond:` for one decision and enforces Apple's consumption-request
/// rules for what only the facts decide (the loader already refused what the rule's conditions
/// decide): no percentage for an auto-renewable purchase, a percentage of 0 when not delivered,
/// a percentage for `GRANT_PRORATED` on other products, and 0–100 percent.
struct RefundResponseBuilder {
    let context: EvaluationContext
    let productType: CompiledExpression?

    func build(_ response: CompiledResponse) -> Result<Decision.RefundResponse, EvaluationError> {
        var percent: Int64?
        switch response.consumptionPercentage {
        case .fixed(let value)?: percent = value
        case .computed(let field)?:
            switch field.expression.evaluate(context) {
            case .value(.int(let value)): percent = value
            case .value: return .failure(EvaluationError("consumptionPercentage is not a whole number"))
            case .error(let error): return .failure(error)
            }
        case nil: break
        }
        var delivery: String?
        switch response.deliveryStatus {
        case .fixed(let value)?: delivery = value
        case .computed(let field)?:
            switch field.expression.evaluate(context) {
            case .value(.enumeration(let ordinal)): delivery = RuleEnum.deliveryStatus.caseName(ordinal)
            case .value: return .failure(EvaluationError("deliveryStatus is not a DeliveryStatus"))
            case .error(let error): return .failure(error)
            }
        case nil: break
        }
        var sample: Bool?
        switch response.sampleContentProvided {
        case .fixed(let value)?: sample = value
        case .computed(let field)?:
            switch field.expression.evaluate(context) {
            case .value(.bool(let value)): sample = value
            case .value: return .failure(EvaluationError("sampleContentProvided is not true or false"))
            case .error(let error): return .failure(error)
            }
        case nil: break
        }
        if let failure = violation(percent: percent, delivery: delivery, preference: response.refundPreference) {
            return .failure(failure)
        }
        return .success(Decision.RefundResponse(
            refundPreference: response.refundPreference, consumptionPercentage: percent.map { $0 * 1000 },
            deliveryStatus: delivery, sampleContentProvided: sample))
    }

    private func violation(percent: Int64?, delivery: String?, preference: String?) -> EvaluationError? {
        if let percent, !(0...100).contains(percent) {
            return EvaluationError("consumptionPercentage must be 0–100 percent, got \(percent)")
        }
        if let percent, percent != 0, let delivery, delivery != "DELIVERED" {
            return EvaluationError("consumptionPercentage must be 0 when deliveryStatus is \(delivery), got \(percent)")
        }
        guard percent != nil || preference == "GRANT_PRORATED" else { return nil }
        let type: String
        switch productType?.evaluate(context) {
        case .value(.enumeration(let ordinal))?: type = RuleEnum.productType.caseName(ordinal)
        case .error(let error)?: return EvaluationError("cannot check Apple's consumption rules: \(error.message)")
        default: return EvaluationError("cannot check Apple's consumption rules: purchase.productType is unknown")
        }
        if percent != nil, type == "AUTO_RENEWABLE" {
            return EvaluationError("consumptionPercentage must be omitted for auto-renewable subscriptions")
        }
        if percent == nil, preference == "GRANT_PRORATED", type != "AUTO_RENEWABLE" {
            return EvaluationError("GRANT_PRORATED needs consumptionPercentage for a \(type) purchase")
        }
        return nil
    }
}
