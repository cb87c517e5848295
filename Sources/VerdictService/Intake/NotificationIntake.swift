import AppStoreServer
import Foundation
import Logging
import Tracing
import VerdictStorage

/// The one path every notification takes into Verdict — `POST /v1/notifications`, backfill and
/// reconciliation alike: verify the signed payload and its nested JWS, then store the notification
/// and enqueue its processing in one database transaction.
///
/// Nothing is acknowledged unless that transaction committed: a verification failure stores
/// nothing; a retryable verification failure (OCSP unreachable) or any storage failure is
/// ``IntakeError/unavailable(_:)`` so the sender (Apple) retries.
public struct NotificationIntake: Sendable {
    /// The job kind that processes a stored notification.
    public static let processingJobKind = "process-notification"

    let verifier: SignedDataVerifier
    let repository: any NotificationStore
    let metrics: ServiceMetrics
    let jobSignal: JobSignal
    let now: @Sendable () -> Date

    public init(verifier: SignedDataVerifier, repository: any NotificationStore, metrics: ServiceMetrics,
                jobSignal: JobSignal, now: @escaping @Sendable () -> Date = { Date() }) {
        self.verifier = verifier
        self.repository = repository
        self.metrics = metrics
        self.jobSignal = jobSignal
        self.now = now
    }

    /// The outcome of accepting a notification.
    public struct Outcome: Sendable, Equatable {
        public var notificationUUID: String
        public var notificationType: String
        /// False when the notification was already stored (nothing changed).
        public var isNew: Bool
    }

    /// Verifies and durably stores `signedPayload`.
    public func accept(signedPayload: String, source: NotificationSource) async throws(IntakeError) -> Outcome {
        let started = ContinuousClock.now
        func count(_ type: String, _ result: String) {
            metrics.notification(type: type, result: result)
            metrics.notificationIntake(result: result, duration: ContinuousClock.now - started)
        }
        let verified: VerifiedNotification
        let verification = startSpan("verify notification")
        if verification.isRecording { verification.attributes["verdict.app"] = metrics.app ?? "" }
        do {
            verified = try await verifier.verifyNotification(signedPayload)
            verification.end()
        } catch {
            verification.attributes["verdict.verification.code"] = error.code
            verification.setStatus(SpanStatus(code: .error))
            verification.end()
            metrics.verificationFailure(code: error.code)
            count("unknown", error.isRetryable ? "unavailable" : "rejected")
            throw error.isRetryable ? .unavailable("verification could not complete: \(error.message)") : .verification(error)
        }
        let payload = verified.payload
        let type = payload.notificationType?.rawValue ?? "unknown"
        guard let uuid = payload.notificationUUID, !uuid.isEmpty, let signedDate = payload.signedDate else {
            count(type, "rejected")
            throw .invalidPayload("the notification has no notificationUUID or signedDate")
        }
        let content = StoredNotificationContent(verified)
        let receivedAt = now().appStoreMilliseconds
        let notification: NewNotification
        do {
            notification = NewNotification(
                notificationUUID: uuid, notificationType: type, subtype: payload.subtype?.rawValue,
                environment: payload.appIdentity.environment?.rawValue, bundleId: payload.appIdentity.bundleId,
                originalTransactionId: content.originalTransactionId, transactionId: verified.transaction?.transactionId,
                signedDate: signedDate.appStoreMilliseconds, receivedAt: receivedAt, source: source,
                signedPayload: signedPayload, decodedJSON: try content.encoded(nestedJSONOf: verified)
            )
        } catch {
            count(type, "rejected")
            throw .invalidPayload("the notification could not be re-encoded")
        }
        let job = NewJob(
            kind: Self.processingJobKind, payload: #"{"notificationUUID":"\#(uuid)"}"#, notificationUUID: uuid,
            runAt: receivedAt, createdAt: receivedAt, traceParent: TraceParent.current()
        )
        let store = startSpan("store notification")
        defer { store.end() }
        if store.isRecording {
            store.attributes["verdict.app"] = metrics.app ?? ""
            store.attributes["apple.notification.type"] = type
            store.attributes["apple.notification.uuid"] = uuid
        }
        do {
            // The current span while storing, so the database's span is its child.
            let inserted = try await ServiceContext.$current.withValue(store.context) { [repository] in
                try await repository.insertNotification(notification, processingJob: job)
            }
            switch inserted {
            case .inserted:
                count(type, "accepted")
                jobSignal.notify()
                return Outcome(notificationUUID: uuid, notificationType: type, isNew: true)
            case .duplicate:
                count(type, "duplicate")
                return Outcome(notificationUUID: uuid, notificationType: type, isNew: false)
            }
        } catch {
            store.setStatus(SpanStatus(code: .error))
            count(type, "unavailable")
            throw .unavailable("the notification could not be stored: \(StorageErrorText.describe(error))")
        }
    }
}

/// Why a notification was not accepted.
public enum IntakeError: Error, Sendable {
    /// The signed payload failed verification (nothing stored). Answer 422.
    case verification(VerificationError)
    /// Verified, but unusable (no notificationUUID…). Answer 422.
    case invalidPayload(String)
    /// Nothing was stored, and a retry may succeed (database or OCSP unavailable). Answer 503.
    case unavailable(String)

    /// The HTTP answer.
    public var serviceError: ServiceError {
        switch self {
        case .verification(let error): .unprocessable(error.code, error.message)
        case .invalidPayload(let message): .unprocessable("INVALID_PAYLOAD", message)
        case .unavailable(let message): .unavailable("UNAVAILABLE", message)
        }
    }
}

/// Describes a storage error without leaking connection secrets.
enum StorageErrorText {
    static func describe(_ error: any Error) -> String {
        if let storage = error as? StorageError { return storage.description }
        return "database error"
    }
}
