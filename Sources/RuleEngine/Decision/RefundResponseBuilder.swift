import AppStoreServer

/// Evaluates a compiled `respond:` for one decision and makes the answer one Apple accepts where
/// only the facts decide (the loader already refused what the rule's conditions decide): the
/// computed answer goes through AppStoreServer's ``ConsumptionValues/conform(_:productType:)``,
/// which clamps the percentage to 0–100 percent, omits it for an auto-renewable purchase, sets it
/// to 0 when not delivered, and drops `GRANT_PRORATED` without a usable percentage on other
/// products. The corrections come back with the answer for the decision to record.
///
/// What is not about Apple's rules still fails the rule: a computed value of the wrong type, an
/// evaluation error, or a product type that cannot be read when the rules need it.
struct RefundResponseBuilder {
    let context: EvaluationContext
    let productType: CompiledExpression?

    /// An answer and the corrections made to it.
    struct Built {
        let response: Decision.RefundResponse
        let corrections: [ConsumptionCorrection]
    }

    func build(_ response: CompiledResponse) -> Result<Built, EvaluationError> {
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
        var type: ProductType?
        if percent != nil || response.refundPreference == RefundPreference.grantProrated.rawValue {
            switch purchaseProductType() {
            case .success(let value): type = value
            case .failure(let error): return .failure(error)
            }
        }
        let proposed = ConsumptionValues(
            refundPreference: response.refundPreference, consumptionPercentage: percent.map(Self.milliunits),
            deliveryStatus: delivery, sampleContentProvided: sample)
        let (values, corrections) = ConsumptionValues.conform(proposed, productType: type)
        return .success(Built(
            response: Decision.RefundResponse(
                refundPreference: values.refundPreference, consumptionPercentage: values.consumptionPercentage,
                deliveryStatus: values.deliveryStatus, sampleContentProvided: values.sampleContentProvided),
            corrections: corrections))
    }

    /// The purchase's product type as Apple's value (an unrecognized one keeps the rule name
    /// `UNRECOGNIZED`, which counts as "not auto-renewable").
    private func purchaseProductType() -> Result<ProductType, EvaluationError> {
        switch productType?.evaluate(context) {
        case .value(.enumeration(let ordinal))?:
            let cases = RuleEnum.productType.cases
            let wire = cases.indices.contains(Int(ordinal)) ? cases[Int(ordinal)].wireValue : RuleEnum.productType.caseName(ordinal)
            return .success(ProductType(rawValue: wire))
        case .error(let error)?:
            return .failure(EvaluationError("cannot check Apple's consumption rules: \(error.message)"))
        default:
            return .failure(EvaluationError("cannot check Apple's consumption rules: purchase.productType is unknown"))
        }
    }

    /// Whole percent to Apple's milliunits, saturating (the conformance clamps it to 0…100000).
    static func milliunits(_ percent: Int64) -> Int64 {
        let (value, overflow) = percent.multipliedReportingOverflow(by: 1000)
        return overflow ? (percent < 0 ? .min : .max) : value
    }
}
