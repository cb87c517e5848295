import Foundation

/// The decoded payload of an App Store Server Notification V2.
///
/// `data`, `summary`, `externalPurchaseToken` and `appData` are mutually exclusive: which one is
/// present depends on the notification type. `UNCLAIM_SEATS` carries `unclaimInfo`; whether it also
/// carries `data` is not confirmed, and nothing here requires it.
public struct ResponseBodyV2DecodedPayload: Codable, Hashable, Sendable {
    public var notificationType: NotificationTypeV2?
    public var subtype: Subtype?
    /// Unique per notification; retries reuse it, so it is the idempotency key.
    public var notificationUUID: String?
    /// App, environment and signed transaction / renewal info of most notification types.
    public var data: NotificationData?
    /// The notification version, `"2.0"`.
    public var version: String?
    /// When Apple signed the notification (ms on the wire).
    public var signedDate: Date?
    /// Result of a mass renewal-date extension (`RENEWAL_EXTENSION` / `SUMMARY`).
    public var summary: Summary?
    /// Present on `EXTERNAL_PURCHASE_TOKEN` notifications.
    public var externalPurchaseToken: ExternalPurchaseToken?
    /// Present on `RESCIND_CONSENT` notifications.
    public var appData: AppData?
    /// Present on `UNCLAIM_SEATS` notifications: the seats that were unclaimed.
    public var unclaimInfo: UnclaimInfo?

    public init(
        notificationType: NotificationTypeV2? = nil,
        subtype: Subtype? = nil,
        notificationUUID: String? = nil,
        data: NotificationData? = nil,
        version: String? = nil,
        signedDate: Date? = nil,
        summary: Summary? = nil,
        externalPurchaseToken: ExternalPurchaseToken? = nil,
        appData: AppData? = nil,
        unclaimInfo: UnclaimInfo? = nil
    ) {
        self.notificationType = notificationType
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        self.data = data
        self.version = version
        self.signedDate = signedDate
        self.summary = summary
        self.externalPurchaseToken = externalPurchaseToken
        self.appData = appData
        self.unclaimInfo = unclaimInfo
    }
}
