/// Which roles reach which endpoint (docs/integration.md, "Tokens and roles"). An operator
/// reaches everything; an endpoint missing from the table is for operators only, so a new
/// endpoint is closed until it is listed (a test holds the table to the OpenAPI document).
enum AccessPolicy {
    typealias Role = APIToken.Role

    /// The app backend's endpoints: targeting and signing offers, attributes, consent and facts.
    static let app: Set<String> = [
        "POST /v1/offers/decide", "POST /v1/offers/signatures",
        "GET /v1/subscriptions/{originalTransactionId}/offer", "GET /v1/customers/{appAccountToken}/offer",
        "GET /v1/customers/{appAccountToken}/attributes", "PUT /v1/customers/{appAccountToken}/attributes",
        "GET /v1/customers/{appAccountToken}/consent", "PUT /v1/customers/{appAccountToken}/consent",
        "GET /v1/subscriptions/{originalTransactionId}/consent", "PUT /v1/subscriptions/{originalTransactionId}/consent",
        "GET /v1/transactions/{transactionId}/facts", "PUT /v1/transactions/{transactionId}/facts",
    ]

    /// The read-only API (never a signed offer) and replays.
    static let viewer: Set<String> = [
        "GET /v1/notifications/{notificationUUID}",
        "GET /v1/decisions", "GET /v1/decisions/{decisionId}", "GET /v1/subscriptions/{originalTransactionId}/decisions",
        "GET /v1/customers/{appAccountToken}/attributes", "GET /v1/customers/{appAccountToken}/consent",
        "GET /v1/subscriptions/{originalTransactionId}/consent", "GET /v1/transactions/{transactionId}/facts",
        "GET /v1/consumption", "GET /v1/consumption/{transactionId}",
        "GET /v1/rules", "GET /v1/rules/stats",
        "POST /v1/rules/replay", "GET /v1/rules/replay", "GET /v1/rules/replay/{replayId}",
        "GET /v1/rules/replay/{replayId}/report.html", "DELETE /v1/rules/replay/{replayId}",
    ]

    /// The roles that reach `operation` (`METHOD /path/{template}`).
    static func roles(for operation: String) -> Set<Role> {
        var roles: Set<Role> = [.operator]
        if app.contains(operation) { roles.insert(.app) }
        if viewer.contains(operation) { roles.insert(.viewer) }
        return roles
    }
}
