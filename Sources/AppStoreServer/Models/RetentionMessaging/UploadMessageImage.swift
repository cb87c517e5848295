import Foundation

/// `image` of ``UploadMessageRequestBody``: an uploaded `FULL_SIZE` image (Upload Image) shown
/// with the message, and its alternative text (Apple: at most 150 characters). The identifier
/// is written in lower case.
public struct UploadMessageImage: Codable, Hashable, Sendable {
    public var imageIdentifier: UUID
    public var altText: String

    public init(imageIdentifier: UUID, altText: String) {
        self.imageIdentifier = imageIdentifier
        self.altText = altText
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        imageIdentifier = try container.decodeUUIDString(forKey: .imageIdentifier)
        altText = try container.decode(String.self, forKey: .altText)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(imageIdentifier.uuidString.lowercased(), forKey: .imageIdentifier)
        try container.encode(altText, forKey: .altText)
    }

    private enum CodingKeys: String, CodingKey { case imageIdentifier, altText }
}
