import AppStoreServer
import Foundation

/// Retention Messaging images as the App Store keeps them: PNGs without transparency (a
/// `FULL_SIZE` image exactly 3840 pixels wide and 160–2160 high; Apple publishes no pixel limits
/// for `BULLET_POINT` images, so only PNG and transparency are checked for them), at most 2000 per
/// app, reviewed like messages (the same review delay, or the state set by ``setImageState(_:_:)``),
/// and not deletable while a message uses them. A message's images are checked when it is
/// uploaded: they must exist (404 `4040014`), and be approved before the message can be a default
/// message (403 `4030018`); the message's own review does not wait for its images.
extension SimulatorStore {
    /// Apple's limits for images and the messages using them.
    static let imageLimit = 2000
    static let altTextLimit = 150
    static let bulletPointLimit = 5
    static let bulletTextLimit = 66

    func uploadImage(_ identifier: UUID, png: Data, size: ImageSize) throws(MessagingError) {
        guard messaging.images[identifier] == nil else { throw .imageExists }
        guard size.isKnown else { throw .invalidImageSize("unknown imageSize \(size.rawValue)") }
        let header: PNGImageHeader
        do {
            header = try PNGImageHeader.read(png)
        } catch {
            throw .invalidImage(error.description)
        }
        guard !header.hasTransparency else { throw .invalidImage("the image has transparency") }
        if size == .fullSize {
            guard header.width == PNGImageHeader.fullSizeWidth, PNGImageHeader.fullSizeHeights.contains(header.height) else {
                throw .invalidImageSize("a FULL_SIZE image is 3840 × 160–2160 pixels, this one \(header.width) × \(header.height)")
            }
        }
        guard messaging.images.count < Self.imageLimit else { throw .maximumImagesReached }
        messaging.images[identifier] = .init(size: size, width: header.width, height: header.height, uploadedAt: now)
    }

    func deleteImage(_ identifier: UUID) throws(MessagingError) {
        guard messaging.images[identifier] != nil else { throw .imageNotFound }
        guard !messaging.messages.values.contains(where: { $0.body.imageIdentifiers.contains(identifier) }) else { throw .imageInUse }
        messaging.images[identifier] = nil
    }

    func imageList() -> GetImageListResponse {
        let items = messaging.images.sorted { $0.key.uuidString < $1.key.uuidString }.map {
            GetImageListResponseItem(imageIdentifier: $0.key, imageState: messaging.state(of: $0.value, now: now))
        }
        return GetImageListResponse(imageIdentifiers: items)
    }

    /// Sets an image's review outcome (the control API): `APPROVED`, `REJECTED` or `PENDING`.
    public func setImageState(_ identifier: UUID, _ state: ReviewState) throws(MessagingError) {
        guard messaging.images[identifier] != nil else { throw .imageNotFound }
        messaging.images[identifier]?.decided = state
    }

    /// Checks a message's image, header position and bullet points: Apple's limits first (400),
    /// then that every image it names was uploaded (404).
    func checkImageFields(of body: UploadMessageRequestBody) throws(MessagingError) {
        if let position = body.headerPosition {
            guard position.isKnown else { throw .invalidMessage("headerPosition") }
            guard position != .aboveImage || body.image != nil else { throw .aboveImageRequiresAnImage }
        }
        if let image = body.image, image.altText.count > Self.altTextLimit { throw .altTextTooLong }
        if let bullets = body.bulletPoints {
            guard bullets.count <= Self.bulletPointLimit else { throw .tooManyBulletPoints }
            for bullet in bullets {
                guard !bullet.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw .invalidMessage("bulletPoints.text") }
                guard bullet.text.count <= Self.bulletTextLimit else { throw .bulletPointTextTooLong }
                guard bullet.altText.count <= Self.altTextLimit else { throw .altTextTooLong }
            }
        }
        for identifier in body.imageIdentifiers where messaging.images[identifier] == nil { throw .imageNotFound }
    }

    /// Whether every image `message` shows is approved (a message without images: true).
    func imagesApproved(_ message: SimulatedMessaging.Message) -> Bool {
        message.body.imageIdentifiers.allSatisfy { identifier in
            messaging.images[identifier].map { messaging.state(of: $0, now: now) == .approved } ?? false
        }
    }
}
