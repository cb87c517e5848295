import AppStoreServer

/// Apple's errors for Retention Messaging images and the image fields of a message, with Apple's
/// codes (`APIError`).
extension APIErrorResponse {
    static let invalidImage = Self(APIError.invalidImage.rawValue, "Invalid request. The image is not a PNG or has transparency.")
    static let badRequestImageSize = Self(APIError.badRequestImageSize.rawValue, "Invalid request. The image size is invalid.")
    static let altTextTooLong = Self(APIError.altTextTooLong.rawValue, "Invalid request. The alternative text is too long.")
    static let tooManyBulletPoints = Self(APIError.badRequestTooManyBulletPoints.rawValue, "Invalid request. There are too many bullet points.")
    static let bulletPointTextTooLong = Self(APIError.badRequestBulletPointTextTooLong.rawValue, "Invalid request. The bullet point text is too long.")
    static let aboveImageRequiresAnImage = Self(
        APIError.badRequestAboveImageRequiresAnImage.rawValue, "Invalid request. The header position ABOVE_IMAGE requires an image.")
    static let maximumNumberOfImagesReached = Self(APIError.maximumNumberOfImagesReached.rawValue, "The maximum number of images is reached.")
    static let imageNotApproved = Self(APIError.imageNotApproved.rawValue, "The image isn't approved.")
    static let imageInUse = Self(APIError.imageInUse.rawValue, "The image is in use by a message.")
    static let imageNotFound = Self(APIError.imageNotFound.rawValue, "The image identifier wasn't found.")
    static let imageAlreadyExists = Self(APIError.imageAlreadyExists.rawValue, "An image with this identifier already exists.")
}
