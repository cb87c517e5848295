import Foundation

/// One uploaded image of ``GetImageListResponse``: its identifier and review state. An
/// identifier that is not a UUID is read as nil rather than failing the whole list.
public struct GetImageListResponseItem: Codable, Hashable, Sendable {
    public var imageIdentifier: UUID?
    public var imageState: ReviewState?

    public init(imageIdentifier: UUID?, imageState: ReviewState?) {
        self.imageIdentifier = imageIdentifier
        self.imageState = imageState
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        imageIdentifier = try container.decodeIfPresent(String.self, forKey: .imageIdentifier).flatMap(UUID.init(uuidString:))
        imageState = try container.decodeIfPresent(ReviewState.self, forKey: .imageState)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(imageIdentifier?.uuidString.lowercased(), forKey: .imageIdentifier)
        try container.encodeIfPresent(imageState, forKey: .imageState)
    }

    private enum CodingKeys: String, CodingKey { case imageIdentifier, imageState }
}
