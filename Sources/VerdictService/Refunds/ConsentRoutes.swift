import AppStoreServer
import Foundation
import Hummingbird
import VerdictStorage

/// The consent ledger for app backends (bearer token):
/// - `PUT /v1/customers/{appAccountToken}/consent` `{"consented": bool, "at", "source", "termsVersion"}`
///   appends the customer's answer (`at` defaults to now; history is kept, nothing is overwritten);
/// - `GET /v1/customers/{appAccountToken}/consent` — the current answer and the history, newest first.
///
/// Verdict sends consumption information only for a customer whose newest entry consents (or,
/// without any entry, when `VERDICT_ASSUME_CONSENT=true`).
struct ConsentRoutes {
    let repository: any VerdictRepository
    let assumeConsent: Bool
    let now: @Sendable () -> Date
    /// At most this many entries are listed.
    static let historyLimit = 100

    func register(on router: some RouterMethods<ServiceRequestContext>) {
        router.put("/v1/customers/{customerId}/consent") { request, context in
            let token = try CustomerAttributesRoutes.appAccountToken(context)
            let fields = try JSONFields(
                try await JSONBody.collect(request, limit: 4 * 1024), allowed: ["consented", "at", "source", "termsVersion"])
            let recordedAt = now().appStoreMilliseconds
            let at = try fields.timestamp("at") ?? recordedAt
            guard at > 0, at <= recordedAt + 300_000 else {
                throw ServiceError.unprocessable("INVALID_FIELD", "'at' must be a past time (UNIX milliseconds or ISO 8601)")
            }
            let entry = ConsentRecord(
                appAccountToken: token, consented: try fields.required(try fields.bool("consented"), "consented"), at: at,
                source: try fields.required(try fields.string("source"), "source"),
                termsVersion: try fields.string("termsVersion"), recordedAt: recordedAt)
            try await repository.recordConsent(entry)
            return try await view(token)
        }
        router.get("/v1/customers/{customerId}/consent") { _, context in
            let token = try CustomerAttributesRoutes.appAccountToken(context)
            return try await view(token)
        }
    }

    private func view(_ token: String) async throws -> Response {
        let history = try await repository.consents(appAccountToken: token, limit: Self.historyLimit)
        let basis = ConsumptionRequestRecord.ConsentBasis.basis(newest: history.first, assumeConsent: assumeConsent)
        return try JSONBody.response(LedgerView(
            appAccountToken: token, current: ConsentView(basis: basis, entry: history.first),
            history: history.map { ConsentView(basis: .basis(newest: $0, assumeConsent: false), entry: $0) }))
    }

    /// The response body.
    struct LedgerView: Encodable {
        var appAccountToken: String
        /// What a refund request decided now would rely on.
        var current: ConsentView
        var history: [ConsentView]
    }
}
