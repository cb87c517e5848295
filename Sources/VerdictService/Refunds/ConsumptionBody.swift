import AppStoreServer
import Foundation
import RuleEngine
import VerdictStorage

/// The exact Send Consumption Information (V2) body for one refund request, and where each value
/// came from. Each field is the deciding rule's value, else what the app reported for the
/// purchase, else a safe default (`DELIVERED`, no sample content, no percentage, no preference).
/// The result is then conformed to Apple's V2 rules (``ConsumptionRequest/conformed(productType:)``), and every
/// correction is kept for the record. `customerConsented` is always true: a body exists only
/// when consent was recorded or assumed.
struct ConsumptionBody: Sendable {
    /// Where each field came from, and what was corrected: kept in the record.
    struct Explanation: Codable, Sendable, Equatable {
        /// Field name → `rule`, `app` or `default`.
        var sources: [String: String]
        var corrections: [ConsumptionCorrection]
    }

    let request: ConsumptionRequest
    let explanation: Explanation

    init(response: Decision.RefundResponse?, reported: TransactionFactsRecord?, productType: ProductType?) {
        var sources: [String: String] = [:]
        func pick<T>(_ field: String, _ rule: T?, _ app: T?) -> T? {
            if let rule {
                sources[field] = "rule"
                return rule
            }
            if let app {
                sources[field] = "app"
                return app
            }
            return nil
        }
        func pickOrDefault<T>(_ field: String, _ rule: T?, _ app: T?, _ fallback: T) -> T {
            if let value = pick(field, rule, app) { return value }
            sources[field] = "default"
            return fallback
        }
        let proposed = ConsumptionRequest(
            customerConsented: true,
            consumptionPercentage: pick("consumptionPercentage", response?.consumptionPercentage, reported?.consumptionPercentage)
                .map { Int32(clamping: $0) },
            deliveryStatus: DeliveryStatus(rawValue: pickOrDefault(
                "deliveryStatus", response?.deliveryStatus, reported?.deliveryStatus, DeliveryStatus.delivered.rawValue)),
            refundPreference: pick("refundPreference", response?.refundPreference, nil).map(RefundPreference.init(rawValue:)),
            sampleContentProvided: pickOrDefault(
                "sampleContentProvided", response?.sampleContentProvided, reported?.sampleContentProvided, false))
        let corrections: [ConsumptionCorrection]
        (request, corrections) = proposed.conformed(productType: productType)
        explanation = Explanation(sources: sources, corrections: corrections)
    }

    /// The body's bytes, exactly as the API client sends them.
    func encoded() throws -> Data {
        try AppStoreJSON.encoder().encode(request)
    }
}
