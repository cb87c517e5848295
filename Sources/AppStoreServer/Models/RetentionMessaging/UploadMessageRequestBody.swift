import Foundation

/// Upload Message (`PUT /inApps/v1/messaging/message/{messageIdentifier}`): a text retention
/// message, optionally with an image and bullet points. Apple's limits: header ≤ 66 characters,
/// body ≤ 144; the image (an uploaded `FULL_SIZE` image) with alternative text ≤ 150; `headerPosition`
/// `ABOVE_IMAGE` only with an image (absent: above the body); at most 5 bullet points, each with
/// text ≤ 66 and an uploaded `BULLET_POINT` image. Only a plain message may carry an image or
/// bullet points: a message answered with a promotional offer or an alternate product must not.
/// Absent optionals are left out of the JSON.
public struct UploadMessageRequestBody: Codable, Hashable, Sendable {
    public var header: String
    public var body: String
    public var image: UploadMessageImage?
    public var headerPosition: HeaderPosition?
    public var bulletPoints: [BulletPoint]?

    public init(
        header: String, body: String, image: UploadMessageImage? = nil, headerPosition: HeaderPosition? = nil,
        bulletPoints: [BulletPoint]? = nil
    ) {
        self.header = header
        self.body = body
        self.image = image
        self.headerPosition = headerPosition
        self.bulletPoints = bulletPoints
    }

    /// The images the message refers to: its image, then each bullet point's.
    public var imageIdentifiers: [UUID] {
        (image.map { [$0.imageIdentifier] } ?? []) + (bulletPoints ?? []).map(\.imageIdentifier)
    }
}
