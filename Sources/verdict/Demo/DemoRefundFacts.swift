import AppStoreServer
import Foundation

/// What Lumen's app backend knows about one purchase and reports to Verdict before Apple asks
/// (`PUT /v1/transactions/{transactionId}/facts`); refund rules read it as `usage.*`. Encoded,
/// it is the request body (the property names are the body's fields).
struct DemoRefundFacts: Sendable, Hashable, Encodable {
    /// Whether the purchase was delivered (`DELIVERED`, `UNDELIVERED_SERVER_OUTAGE`, …).
    var deliveryStatus: DeliveryStatus
    /// Share used, in Apple's milliunits (0–100000); nil when the app does not track it.
    var consumptionPercentage: Int?
    /// Whether the customer could try the content before buying.
    var sampleContentProvided: Bool
    /// App sessions since the purchase.
    var sessionsSincePurchase: Int

    /// The request body.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// One line for people: `delivered · 0 sessions since purchase · 0 % used · sample shown`.
    var text: String {
        var parts = [deliveryStatus == .delivered ? "delivered" : "NOT delivered (\(deliveryStatus.rawValue))"]
        parts.append("\(sessionsSincePurchase) session\(sessionsSincePurchase == 1 ? "" : "s") since purchase")
        if let consumptionPercentage {
            let percent = Double(consumptionPercentage) / 1000
            parts.append(percent == percent.rounded() ? "\(Int(percent)) % used" : "\(percent) % used")
        }
        parts.append(sampleContentProvided ? "a free preview was available" : "no free preview")
        return parts.joined(separator: " · ")
    }
}
