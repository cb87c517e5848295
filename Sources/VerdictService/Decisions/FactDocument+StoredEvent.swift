import AppStoreServer
import Foundation
import RuleEngine
import VerdictStorage

extension FactDocument.Event {
    /// The event of a stored notification: storage keeps Apple's values as strings, the facts
    /// take them as Apple's enumerations again.
    public init(_ stored: NewNotification) {
        self.init(
            type: NotificationTypeV2(rawValue: stored.notificationType), subtype: stored.subtype.map(Subtype.init(rawValue:)),
            environment: stored.environment.map(AppStoreEnvironment.init(rawValue:)),
            signedDate: Date(appStoreMilliseconds: stored.signedDate))
    }
}
