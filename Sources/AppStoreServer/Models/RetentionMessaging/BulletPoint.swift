import Foundation

/// One entry of ``UploadMessageRequestBody/bulletPoints``: its text (Apple: at most 66
/// characters), the uploaded `BULLET_POINT` image used as its icon, and that image's alternative
/// text (at most 150 characters). The identifier is written in lower case.
public struct BulletPoint: Codable, Hashable, Sendable {
    public var text: String
    public var imageIdentifier: UUID
    public var altText: String

    public init(text: String, imageIdentifier: UUID, altText: String) {
        self.text = text
        self.imageIdentifier = imageIdentifier
        self.altText = altText
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        text = try container.decode(String.self, forKey: .text)
        imageIdentifier = try container.decodeUUIDString(forKey: .imageIdentifier)
        altText = try container.decode(String.self, forKey: .altText)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encode(imageIdentifier.uuidString.lowercased(), forKey: .imageIdentifier)
        try container.encode(altText, forKey: .altText)
    }

    private enum CodingKeys: String, CodingKey { case text, imageIdentifier, altText }
}
