import AppStoreServer
import Foundation

/// The body of `POST /v1/offers/decide`: one of `originalTransactionId`, `transactionId` or
/// `appAccountToken` naming the subscription, the `trigger` decided as, and the signature `format`.
public struct OfferDecideRequest: JSONRequestBody {
    public static let expected = "a decide request object"

    public var originalTransactionId: String?
    public var transactionId: String?
    public var appAccountToken: String?
    public var trigger: String?
    public var format: String?

    /// Every id given is checked, not only the one used (400 `INVALID_FIELD`); any other member
    /// is 400 `UNKNOWN_FIELD`.
    public init(from decoder: any Decoder) throws {
        let body = try decoder.knownMembers(CodingKeys.self)
        originalTransactionId = try body.field(.originalTransactionId, "a non-empty string")
        transactionId = try body.field(.transactionId, "a non-empty string")
        appAccountToken = try body.field(.appAccountToken, "a UUID")
        trigger = try body.field(.trigger, "one of AUTO_RENEW_DISABLED, EXPIRED, DECREASE_QUANTITY, IN_APP")
        format = try body.field(.format, "one of v1, jws, both")
        for (key, id) in [(CodingKeys.originalTransactionId, originalTransactionId), (.transactionId, transactionId)]
        where id?.isEmpty == true {
            throw RequestBodyError.invalidField(key.stringValue, "a non-empty string")
        }
        if let appAccountToken, UUID(uuidString: appAccountToken) == nil {
            throw RequestBodyError.invalidField("appAccountToken", "a UUID")
        }
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case originalTransactionId, transactionId, appAccountToken, trigger, format }

    /// A trigger a request may name, with the event it is decided as.
    public typealias Trigger = (name: String, type: NotificationTypeV2, subtype: Subtype?)

    /// The triggers a request may name. `IN_APP` (the app's own cancel screen, the default)
    /// decides as if auto-renew were being turned off now. `DECREASE_QUANTITY` (the app's own
    /// screen for removing seats of a multiseat subscription) decides as a seat reduction: Apple
    /// has not named the notification type that carries the subtype, so the event's type is
    /// `DID_CHANGE_RENEWAL_PREF` (a change of what renews next) and rules should match the subtype.
    public static let triggers: [Trigger] = [
        (Subtype.autoRenewDisabled.rawValue, .didChangeRenewalStatus, .autoRenewDisabled),
        (NotificationTypeV2.expired.rawValue, .expired, .voluntary),
        (Subtype.decreaseQuantity.rawValue, .didChangeRenewalPref, .decreaseQuantity),
        ("IN_APP", .didChangeRenewalStatus, .autoRenewDisabled),
    ]

    /// The event decided on (400 `INVALID_FIELD` for a trigger not in ``triggers``).
    public func checkedTrigger() throws(RequestBodyError) -> Trigger {
        let name = trigger ?? "IN_APP"
        guard let match = Self.triggers.first(where: { $0.name == name }) else {
            throw .badRequest("INVALID_FIELD", "'trigger' must be one of " + Self.triggers.map(\.name).joined(separator: ", "))
        }
        return match
    }
}
