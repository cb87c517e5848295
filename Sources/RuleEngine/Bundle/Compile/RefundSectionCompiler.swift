/// Compiles the `refunds:` section and enforces Apple's consumption-request (V2) rules wherever
/// the rule's own conditions decide the product type:
///
/// * `consumptionPercentage` is never sent for auto-renewable subscriptions (Apple computes it),
///   so a response that sets it must exclude `AUTO_RENEWABLE` in its rule's conditions;
/// * `GRANT_PRORATED` needs a percentage for consumables, non-consumables and non-renewing
///   subscriptions, so a `GRANT_PRORATED` response without one must be limited to auto-renewables;
/// * the percentage is 0 when `deliveryStatus` is not `DELIVERED`;
/// * `DECLINE` for an undelivered purchase is a warning.
///
/// What only the facts decide is corrected on each decision (`RefundResponseBuilder`), and the
/// corrections recorded.
struct RefundSectionCompiler {
    let support: SectionCompilerSupport
    private var log: DiagnosticLog { support.log }

    func compile(_ syntax: RefundsSyntax) -> CompiledRefundsSection {
        let appliesTo = syntax.appliesTo.flatMap { log.compile($0, support.environment) }
        let fallback = syntax.defaultResponse.flatMap { response($0, conditions: [], environment: support.environment) }
        let rules = syntax.rules.compactMap(rule)
        return CompiledRefundsSection(
            appliesTo: appliesTo, defaultResponse: fallback, defaultLocation: syntax.defaultLocation,
            vetoes: support.vetoes(syntax.never), rules: rules)
    }

    private func rule(_ syntax: RefundRuleSyntax) -> CompiledRefundRule? {
        let header = syntax.header
        let window = support.window(header.active)
        guard let conditions = support.conditions(header.when) else { return nil }
        var environment = support.environment
        for condition in conditions { environment.guardedFacts.formUnion(condition.expression.guaranteedFacts) }
        guard let response = response(syntax.respond, conditions: header.when.map(\.text), environment: environment) else {
            return nil
        }
        return CompiledRefundRule(
            reference: support.reference(header.id, header.idNode), description: header.description, active: window,
            conditions: conditions, response: response, mode: header.mode)
    }

    private func response(_ syntax: RespondSyntax, conditions: [String], environment: CompileEnvironment) -> CompiledResponse? {
        let errorsBefore = log.errorCount
        var percentage: ResponseField<Int64>?
        if let expression = syntax.consumptionPercentage {
            if let literal = Int64(expression.text) {
                if !(0...100).contains(literal) {
                    log.report(.error, "consumptionPercentage is a percentage from 0 to 100, found \(literal)", at: expression.start,
                               length: expression.text.unicodeScalars.count)
                }
                percentage = .fixed(literal)
            } else {
                percentage = log.compile(expression, environment, as: .int, what: "consumptionPercentage").map { .computed($0) }
            }
        }
        var delivery: ResponseField<String>?
        if let expression = syntax.deliveryStatus {
            if RuleEnum.deliveryStatus.ordinal(named: expression.text) != nil {
                delivery = .fixed(expression.text)
            } else {
                delivery = log.compile(expression, environment, as: .enumeration(.deliveryStatus), what: "deliveryStatus")
                    .map { .computed($0) }
            }
        }
        var sample: ResponseField<Bool>?
        if let expression = syntax.sampleContentProvided {
            switch expression.text {
            case "true": sample = .fixed(true)
            case "false": sample = .fixed(false)
            default:
                sample = log.compile(expression, environment, as: .bool, what: "sampleContentProvided").map { .computed($0) }
            }
        }
        let response = CompiledResponse(
            refundPreference: syntax.refundPreference, consumptionPercentage: percentage, deliveryStatus: delivery,
            sampleContentProvided: sample)
        checkAppleRules(response, syntax, conditions: conditions)
        return log.errorCount == errorsBefore ? response : nil
    }

    private func checkAppleRules(_ response: CompiledResponse, _ syntax: RespondSyntax, conditions: [String]) {
        let productTypes = support.analysis.constraint(on: "purchase.productType", in: conditions)
        let autoRenewable = "AUTO_RENEWABLE"
        let excludesAutoRenewable = productTypes.map { !$0.allows(autoRenewable) } ?? false
        let onlyAutoRenewable = productTypes == .only([autoRenewable])
        if let percentage = syntax.consumptionPercentage, !excludesAutoRenewable {
            log.report(
                .error, "consumptionPercentage must be omitted for auto-renewable subscriptions (Apple computes it), and this rule does not exclude them",
                at: percentage.start, length: percentage.text.unicodeScalars.count,
                help: "add a condition such as `purchase.productType != AUTO_RENEWABLE`")
        }
        if response.refundPreference == "GRANT_PRORATED", response.consumptionPercentage == nil, !onlyAutoRenewable,
            let node = syntax.refundPreferenceNode
        {
            log.error(
                "GRANT_PRORATED needs consumptionPercentage for consumables, non-consumables and non-renewing subscriptions",
                at: node, help: "set consumptionPercentage, or limit the rule with `purchase.productType == AUTO_RENEWABLE`")
        }
        guard let delivery = response.deliveryStatus?.fixedValue, delivery != "DELIVERED",
            let deliveryExpression = syntax.deliveryStatus
        else { return }
        if let percentage = syntax.consumptionPercentage, response.consumptionPercentage?.fixedValue != 0 {
            log.report(
                .error, "consumptionPercentage must be 0 when deliveryStatus is \(delivery)", at: percentage.start,
                length: percentage.text.unicodeScalars.count)
        }
        if response.refundPreference == "DECLINE" {
            log.report(
                .warning, "declining a refund for a purchase that was not delivered (\(delivery))", at: deliveryExpression.start,
                length: deliveryExpression.text.unicodeScalars.count)
        }
    }
}
