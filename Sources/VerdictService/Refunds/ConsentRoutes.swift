import AppStoreServer
import Foundation
import Hummingbird
import VerdictStorage
import VerdictRequests

/// The consent ledger for app backends (bearer token), recorded for an app account token or — for
/// purchases made without one — for a subscription or purchase chain:
/// - `PUT /v1/customers/{appAccountToken}/consent` and `PUT /v1/subscriptions/{originalTransactionId}/consent`
///   `{"consented": bool, "at", "source", "termsVersion"}` append the customer's answer (`at`
///   defaults to now; history is kept, nothing is overwritten);
/// - `GET` on the same paths: the current answer and the history, newest first.
///
/// A refund request reads the entries of its purchase's token and of its originalTransactionId
/// (all its renewals) together; the newest answer wins. Verdict sends consumption information only
/// when that answer consents (or, without any entry, when `VERDICT_ASSUME_CONSENT=true`).
struct ConsentRoutes {
    let repository: any ConsentStore
    let assumeConsent: Bool
    let now: @Sendable () -> Date
    /// At most this many entries are listed.
    static let historyLimit = 100

    func register(on router: some RouterMethods<ServiceRequestContext>) {
        router.put("/v1/customers/{appAccountToken}/consent") { request, context in
            try await record(request, context, for: .appAccountToken(try context.appAccountToken()))
        }
        router.get("/v1/customers/{appAccountToken}/consent") { _, context in
            try await view(.appAccountToken(try context.appAccountToken()))
        }
        router.put("/v1/subscriptions/{originalTransactionId}/consent") { request, context in
            try await record(request, context, for: .originalTransactionId(try context.originalTransactionId()))
        }
        router.get("/v1/subscriptions/{originalTransactionId}/consent") { _, context in
            try await view(.originalTransactionId(try context.originalTransactionId()))
        }
    }

    private func record(_ request: Request, _ context: ServiceRequestContext, for key: ConsentKey) async throws -> Response {
        let body = try await request.decode(as: ConsentRequest.self, context: context)
        let recordedAt = now().appStoreMilliseconds
        let at = body.at ?? recordedAt
        guard at > 0, at <= recordedAt + 300_000 else {
            throw ServiceError.unprocessable("INVALID_FIELD", "'at' must be a past time (UNIX milliseconds or ISO 8601)")
        }
        let entry = ConsentRecord(
            key: key, consented: body.consented, at: at, source: body.source, termsVersion: body.termsVersion,
            recordedAt: recordedAt)
        try await repository.recordConsent(entry)
        return try await view(key)
    }

    private func view(_ key: ConsentKey) async throws -> Response {
        let history = try await repository.consents(keys: [key], limit: Self.historyLimit)
        let basis = ConsumptionRequestRecord.ConsentBasis.basis(newest: history.first, assumeConsent: assumeConsent)
        return try JSONBody.response(LedgerView(
            appAccountToken: key.appAccountToken, originalTransactionId: key.originalTransactionId,
            current: ConsentView(basis: basis, entry: history.first),
            history: history.map { ConsentView(basis: .basis(newest: $0, assumeConsent: false), entry: $0) }))
    }

    /// The response body: the key the ledger was asked for, the current answer and the history.
    struct LedgerView: Encodable {
        var appAccountToken: String?
        var originalTransactionId: String?
        /// What a refund request decided now would rely on.
        var current: ConsentView
        var history: [ConsentView]
    }
}
