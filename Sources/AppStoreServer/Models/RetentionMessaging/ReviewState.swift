/// Apple's review state of an uploaded retention message or image: Get Message List's
/// `messageState` and Get Image List's `imageState`, which share one vocabulary. A state Apple
/// adds later decodes, round-trips and reports `isKnown == false`.
public struct ReviewState: AppleEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Waiting for review.
    public static let pending = Self(rawValue: "PENDING")
    /// May be shown.
    public static let approved = Self(rawValue: "APPROVED")
    /// Refused by review.
    public static let rejected = Self(rawValue: "REJECTED")

    public static let knownValues: [Self] = [.pending, .approved, .rejected]
}
