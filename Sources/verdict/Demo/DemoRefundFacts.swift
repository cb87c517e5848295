/// What Lumen's app backend knows about one purchase and reports to Verdict before Apple asks
/// (`PUT /v1/transactions/{transactionId}/facts`); refund rules read it as `usage.*`.
struct DemoRefundFacts: Sendable, Hashable {
    /// One of Apple's delivery statuses: `DELIVERED`, `UNDELIVERED_SERVER_OUTAGE`, …
    var deliveryStatus: String
    /// Share used, in Apple's milliunits (0–100000); nil when the app does not track it.
    var consumptionPercentage: Int?
    /// Whether the customer could try the content before buying.
    var sampleContentProvided: Bool
    /// App sessions since the purchase.
    var sessionsSincePurchase: Int

    /// The request body.
    var json: String {
        var fields = [
            #""deliveryStatus":"\#(deliveryStatus)""#,
            #""sampleContentProvided":\#(sampleContentProvided)"#,
            #""sessionsSincePurchase":\#(sessionsSincePurchase)"#,
        ]
        if let consumptionPercentage { fields.insert(#""consumptionPercentage":\#(consumptionPercentage)"#, at: 1) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// One line for people: `delivered · 0 sessions since purchase · 0 % used · sample shown`.
    var text: String {
        var parts = [deliveryStatus == "DELIVERED" ? "delivered" : "NOT delivered (\(deliveryStatus))"]
        parts.append("\(sessionsSincePurchase) session\(sessionsSincePurchase == 1 ? "" : "s") since purchase")
        if let consumptionPercentage {
            let percent = Double(consumptionPercentage) / 1000
            parts.append(percent == percent.rounded() ? "\(Int(percent)) % used" : "\(percent) % used")
        }
        parts.append(sampleContentProvided ? "a free preview was available" : "no free preview")
        return parts.joined(separator: " · ")
    }
}
