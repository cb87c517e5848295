/// Who hosts the invitations of a multiseat subscription (`invitationManagement`): Apple, or the
/// developer's own app. The value is the one in effect when the subscription began.
public struct InvitationManagement: AppleEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Apple hosts the invitations; members of the group get their own `ASSIGNED` transactions.
    public static let apple = Self(rawValue: "APPLE")
    /// The developer's app hosts the invitations and claims a seat for each member.
    public static let developer = Self(rawValue: "DEVELOPER")

    /// The documented values, in documentation order.
    public static let knownValues: [Self] = [.apple, .developer]
}
