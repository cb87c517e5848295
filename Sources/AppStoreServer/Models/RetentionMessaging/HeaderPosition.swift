/// Where a message's header appears (Upload Message's `headerPosition`); absent means above the body.
public struct HeaderPosition: AppleEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Above the message body, below the image (Apple's default).
    public static let aboveBody = Self(rawValue: "ABOVE_BODY")
    /// Above the image: only for a message with an image.
    public static let aboveImage = Self(rawValue: "ABOVE_IMAGE")

    public static let knownValues: [Self] = [.aboveBody, .aboveImage]
}
