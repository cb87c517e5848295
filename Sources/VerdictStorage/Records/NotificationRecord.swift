/// Where a stored notification came from.
public enum NotificationSource: String, Sendable, Codable {
    /// `POST /v1/notifications` (Apple or a forwarder).
    case delivery
    /// `verdict appstore backfill`.
    case backfill
    /// Automatic reconciliation with Get Notification History.
    case reconcile
}

/// Processing state of a stored notification.
public enum NotificationProcessingState: String, Sendable, Codable {
    /// Stored; its processing job has not completed yet.
    case received
    /// Its processing job completed.
    case processed
    /// Its processing job died after its last attempt.
    case failed
}

/// A verified notification to store (intake fills it in from the verified payload).
public struct NewNotification: Sendable, Equatable {
    public var notificationUUID: String
    public var notificationType: String
    public var subtype: String?
    public var environment: String?
    public var bundleId: String?
    public var originalTransactionId: String?
    public var transactionId: String?
    /// The payload's `signedDate`, UNIX ms.
    public var signedDate: Int64
    public var receivedAt: Int64
    public var source: NotificationSource
    /// Apple's `signedPayload` exactly as received.
    public var signedPayload: String
    /// The verified, decoded content (payload and nested transaction / renewal info) as JSON.
    public var decodedJSON: String

    public init(notificationUUID: String, notificationType: String, subtype: String?, environment: String?,
                bundleId: String?, originalTransactionId: String?, transactionId: String?, signedDate: Int64,
                receivedAt: Int64, source: NotificationSource, signedPayload: String, decodedJSON: String) {
        self.notificationUUID = notificationUUID
        self.notificationType = notificationType
        self.subtype = subtype
        self.environment = environment
        self.bundleId = bundleId
        self.originalTransactionId = originalTransactionId
        self.transactionId = transactionId
        self.signedDate = signedDate
        self.receivedAt = receivedAt
        self.source = source
        self.signedPayload = signedPayload
        self.decodedJSON = decodedJSON
    }
}

/// A stored notification with its processing state.
public struct NotificationRecord: Sendable, Equatable {
    public var notification: NewNotification
    public var state: NotificationProcessingState
    /// The processing job's id.
    public var jobId: Int64?
    /// Attempts of the processing job so far.
    public var attempts: Int
    /// The processing result (JSON text) once processed, or the last error once failed.
    public var result: String?
    /// The last attempt's error while still retrying.
    public var lastError: String?
    public var processedAt: Int64?
    /// How many times processing completed; exactly 1 once processed.
    public var processedCount: Int

    public init(notification: NewNotification, state: NotificationProcessingState, jobId: Int64?, attempts: Int,
                result: String?, lastError: String?, processedAt: Int64?, processedCount: Int) {
        self.notification = notification
        self.state = state
        self.jobId = jobId
        self.attempts = attempts
        self.result = result
        self.lastError = lastError
        self.processedAt = processedAt
        self.processedCount = processedCount
    }
}

/// The outcome of storing a notification.
public enum NotificationInsertResult: Sendable, Equatable {
    /// Stored now, with its processing job.
    case inserted(jobId: Int64)
    /// Already stored earlier; nothing changed.
    case duplicate
}
