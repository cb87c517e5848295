/// Get Image List (`GET /inApps/v1/messaging/image/list`): every uploaded image with its review
/// state.
public struct GetImageListResponse: Codable, Hashable, Sendable {
    public var imageIdentifiers: [GetImageListResponseItem]?

    public init(imageIdentifiers: [GetImageListResponseItem]? = nil) {
        self.imageIdentifiers = imageIdentifiers
    }
}
