import AppStoreServer
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension FactDocument {
    /// `event`: the notification being decided (or, for an on-demand decision, the event it
    /// stands for). Values are kept as Apple sent them, unknown ones included: the facts are typed
    /// strictly, so a notification type this version does not know is refused, not guessed at.
    public struct Event: Sendable, Hashable {
        public var type: NotificationTypeV2
        /// Nil for a notification without a subtype (the fact then reads `NONE`).
        public var subtype: Subtype?
        public var environment: AppStoreEnvironment?
        /// Why the customer asked for a refund (`CONSUMPTION_REQUEST` only).
        public var consumptionRequestReason: ConsumptionRequestReason?
        /// The device's locale (`REALTIME_REQUEST` only).
        public var userLocale: String?
        public var signedDate: Date

        public init(type: NotificationTypeV2, subtype: Subtype?, environment: AppStoreEnvironment?, signedDate: Date,
                    consumptionRequestReason: ConsumptionRequestReason? = nil, userLocale: String? = nil) {
            self.type = type
            self.subtype = subtype
            self.environment = environment
            self.signedDate = signedDate
            self.consumptionRequestReason = consumptionRequestReason
            self.userLocale = userLocale
        }
    }
}

extension FactDocument.Event: FactRecord {
    public static let recordName = "Event"
    public static let fields: [FactField<Self>] = [
        .enumeration("type", \.type,
                     "The notification type (SUBSCRIBED, DID_CHANGE_RENEWAL_STATUS, EXPIRED, CONSUMPTION_REQUEST, …), or REALTIME_REQUEST for a Retention Messaging request."),
        .enumeration("subtype", \.subtype, whenAbsent: RuleEnum.noSubtype,
                     "The notification subtype; NONE when the notification has none."),
        .enumeration("environment", \.environment, "SANDBOX or PRODUCTION (or XCODE, LOCAL_TESTING)."),
        .enumeration("consumptionRequestReason", \.consumptionRequestReason,
                     "Why the customer asked for a refund (CONSUMPTION_REQUEST only)."),
        .string("userLocale", \.userLocale,
                "The device's locale, such as en-US (REALTIME_REQUEST only: a customer viewing the subscription in the App Store).")
            .optional,
        signedDateField,
    ]

    /// `event.signedDate`, the default `now` of a decision (``Facts/signedDate`` reads its cell).
    static let signedDateField = FactField<Self>.timestamp("signedDate", \.signedDate, "When Apple signed the notification; this is `now`.")
}

extension NotificationTypeV2 {
    /// Not a notification: the event of a Retention Messaging realtime request (a customer viewing
    /// the subscription in the App Store's settings, where they may cancel). Verdict's name; the
    /// rules read it as `event.type == REALTIME_REQUEST`.
    public static let realtimeRequest = NotificationTypeV2(rawValue: "REALTIME_REQUEST")
}
