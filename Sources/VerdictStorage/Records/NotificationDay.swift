/// How many notifications of one type and subtype were received on one UTC day.
public struct NotificationDay: Sendable, Equatable {
    public var day: Int64
    public var notificationType: String
    /// nil: the notification had no subtype.
    public var subtype: String?
    public var notifications: Int

    public init(day: Int64, notificationType: String, subtype: String?, notifications: Int) {
        self.day = day
        self.notificationType = notificationType
        self.subtype = subtype
        self.notifications = notifications
    }
}
