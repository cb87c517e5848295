import AppStoreServer
import Foundation
import Testing

/// Retention Messaging images on the wire: Apple's JSON keys (as in Apple's Swift library),
/// UUIDs written in lower case and read in either case, absent optionals left out, unknown
/// enumeration values kept — and the image endpoints' request shapes.
@Suite struct RetentionImageModelTests {
    static let banner = UUID(uuidString: "1A6E0000-0000-8000-8000-000000000001")!
    static let icon = UUID(uuidString: "1A6E0000-0000-8000-8000-000000000002")!

    @Test func aTextOnlyMessageEncodesAsBefore() throws {
        let body = UploadMessageRequestBody(header: "Stay", body: "Half off.")
        #expect(try ModelFixture.encode(body) == #"{"body":"Half off.","header":"Stay"}"#)
        #expect(body.imageIdentifiers.isEmpty)
        #expect(try ModelFixture.decode(UploadMessageRequestBody.self, json: #"{"header":"Stay","body":"Half off."}"#) == body)
    }

    @Test func aMessageWithImageHeaderPositionAndBulletPoints() throws {
        let body = UploadMessageRequestBody(
            header: "Before you go", body: "Pro keeps it all.",
            image: UploadMessageImage(imageIdentifier: Self.banner, altText: "A mountain at dawn"),
            headerPosition: .aboveImage,
            bulletPoints: [BulletPoint(text: "Every course", imageIdentifier: Self.icon, altText: "check")])
        let json = try ModelFixture.encode(body)
        #expect(json == #"{"body":"Pro keeps it all.","bulletPoints":[{"altText":"check","imageIdentifier":"1a6e0000-0000-8000-8000-000000000002","text":"Every course"}],"header":"Before you go","headerPosition":"ABOVE_IMAGE","image":{"altText":"A mountain at dawn","imageIdentifier":"1a6e0000-0000-8000-8000-000000000001"}}"#)
        #expect(try ModelFixture.decode(UploadMessageRequestBody.self, json: json) == body)
        #expect(body.imageIdentifiers == [Self.banner, Self.icon])
    }

    @Test func upperCaseIdentifiersAndUnknownHeaderPositionsAreRead() throws {
        let body = try ModelFixture.decode(UploadMessageRequestBody.self, json: #"""
            {"header":"h","body":"b","headerPosition":"BELOW_EVERYTHING",
             "image":{"imageIdentifier":"1A6E0000-0000-8000-8000-000000000001","altText":"a"},
             "bulletPoints":[]}
            """#)
        #expect(body.image?.imageIdentifier == Self.banner)
        #expect(body.headerPosition?.rawValue == "BELOW_EVERYTHING")
        #expect(body.headerPosition?.isKnown == false)
        #expect(body.bulletPoints == [])
        #expect(try ModelFixture.encode(body).contains(#""headerPosition":"BELOW_EVERYTHING""#))
    }

    @Test(arguments: [
        #"{"imageIdentifier":"not-a-uuid","altText":"a"}"#,
        #"{"imageIdentifier":"1a6e0000-0000-8000-8000-000000000001"}"#,
        #"{"altText":"a"}"#,
    ])
    func anImageNeedsAUUIDAndAltText(json: String) {
        #expect(throws: DecodingError.self) { try ModelFixture.decode(UploadMessageImage.self, json: json) }
    }

    @Test func aBulletPointNeedsEveryField() {
        #expect(throws: DecodingError.self) {
            try ModelFixture.decode(BulletPoint.self, json: #"{"text":"t","imageIdentifier":"1a6e0000-0000-8000-8000-000000000002"}"#)
        }
        #expect(throws: DecodingError.self) {
            try ModelFixture.decode(BulletPoint.self, json: #"{"text":"t","imageIdentifier":"x","altText":"a"}"#)
        }
    }

    @Test func theImageListKeepsUnknownStates() throws {
        let list = try ModelFixture.decode(GetImageListResponse.self, json: #"""
            {"imageIdentifiers":[
              {"imageIdentifier":"1A6E0000-0000-8000-8000-000000000001","imageState":"APPROVED"},
              {"imageIdentifier":"1a6e0000-0000-8000-8000-000000000002","imageState":"UNDER_APPEAL"},
              {"imageIdentifier":"garbage"}]}
            """#)
        #expect(list.imageIdentifiers == [
            GetImageListResponseItem(imageIdentifier: Self.banner, imageState: .approved),
            GetImageListResponseItem(imageIdentifier: Self.icon, imageState: ReviewState(rawValue: "UNDER_APPEAL")),
            GetImageListResponseItem(imageIdentifier: nil, imageState: nil),
        ])
        #expect(list.imageIdentifiers?[1].imageState?.isKnown == false)
        #expect(try ModelFixture.encode(list) == #"{"imageIdentifiers":[{"imageIdentifier":"1a6e0000-0000-8000-8000-000000000001","imageState":"APPROVED"},{"imageIdentifier":"1a6e0000-0000-8000-8000-000000000002","imageState":"UNDER_APPEAL"},{}]}"#)
        #expect(try ModelFixture.decode(GetImageListResponse.self, json: "{}").imageIdentifiers == nil)
    }

    @Test func enumerationsHaveApplesWireValues() throws {
        #expect(ReviewState.knownValues.map(\.rawValue) == ["PENDING", "APPROVED", "REJECTED"])
        #expect(ImageSize.knownValues.map(\.rawValue) == ["FULL_SIZE", "BULLET_POINT"])
        #expect(HeaderPosition.knownValues.map(\.rawValue) == ["ABOVE_BODY", "ABOVE_IMAGE"])
        #expect(try ModelFixture.decode(ImageSize.self, json: #""THUMBNAIL""#) == ImageSize(rawValue: "THUMBNAIL"))
        #expect(try ModelFixture.encode(ReviewState(rawValue: "ARCHIVED")) == #""ARCHIVED""#)
    }

    // MARK: - Request shapes

    @Test func uploadImageSendsTheRawPNG() async throws {
        let transport = RecordingTransport(status: 200)
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
        try await APIClientFixtures.client(transport).uploadImage(png, imageIdentifier: Self.banner, imageSize: .bulletPoint)
        let request = try #require(transport.requests.first)
        #expect(request.method == "PUT")
        #expect(request.url.absoluteString
            == "https://api.storekit.apple.com/inApps/v1/messaging/image/1a6e0000-0000-8000-8000-000000000001?imageSize=BULLET_POINT")
        #expect(request.header("Content-Type") == "image/png")
        #expect(request.header("Accept") == "application/json")
        #expect(request.body == png)
    }

    @Test func deleteImageAndGetImageList() async throws {
        let transport = RecordingTransport([
            .response(AppStoreHTTPResponse(status: 200, headers: [], body: Data())),
            APIClientFixtures.response(#"{"imageIdentifiers":[{"imageIdentifier":"1a6e0000-0000-8000-8000-000000000002","imageState":"PENDING"}]}"#),
        ])
        let client = try APIClientFixtures.client(transport)
        try await client.deleteImage(imageIdentifier: Self.banner)
        let list = try await client.getImageList()
        #expect(transport.requests.map(\.method) == ["DELETE", "GET"])
        #expect(transport.requests.map(\.url.path) == [
            "/inApps/v1/messaging/image/1a6e0000-0000-8000-8000-000000000001", "/inApps/v1/messaging/image/list",
        ])
        #expect(transport.requests.allSatisfy { $0.body == nil && $0.header("Content-Type") == nil })
        #expect(list.imageIdentifiers == [.init(imageIdentifier: Self.icon, imageState: .pending)])
    }

    @Test func aMessageUploadStaysJSON() async throws {
        let transport = RecordingTransport(status: 200)
        try await APIClientFixtures.client(transport).uploadMessage(
            messageIdentifier: Self.banner, .init(header: "h", body: "b", image: .init(imageIdentifier: Self.icon, altText: "a")))
        #expect(transport.requests.first?.header("Content-Type") == "application/json")
    }

    @Test func apiErrorsNameTheImageFailures() {
        let failure = AppStoreAPIFailure(kind: .httpError, httpStatus: 409, rawErrorCode: 4_090_000)
        #expect(failure.apiError == .imageAlreadyExists)
        #expect(!failure.isRetryable)
    }
}
