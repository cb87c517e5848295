/// The size an image is uploaded for (Upload Image's `imageSize` query parameter).
public struct ImageSize: AppleEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// An image above a message's body (or below its header): exactly 3840 pixels wide, 160–2160 high.
    public static let fullSize = Self(rawValue: "FULL_SIZE")
    /// A bullet point's icon.
    public static let bulletPoint = Self(rawValue: "BULLET_POINT")

    public static let knownValues: [Self] = [.fullSize, .bulletPoint]
}
