/// Upload Message (`PUT /inApps/v1/messaging/message/{messageIdentifier}`): a text retention
/// message. Apple's limits: header ≤ 66 characters, body ≤ 144. (Apple's optional image, header
/// position and bullet points, which need images, are not modelled: Verdict sends text only.)
public struct UploadMessageRequestBody: Codable, Hashable, Sendable {
    public var header: String
    public var body: String

    public init(header: String, body: String) {
        self.header = header
        self.body = body
    }
}
