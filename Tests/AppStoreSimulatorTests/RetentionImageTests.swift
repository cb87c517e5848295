import AppStoreServer
@testable import AppStoreSimulator
import Foundation
import Testing

/// The simulator's Retention Messaging images through Verdict's API client: real PNG checks
/// (signature, chunks, IHDR, transparency, full-size dimensions), review like messages, Apple's
/// error codes, and messages that show images and bullet points.
@Suite struct RetentionImageTests {
    static let banner = UUID(uuidString: "1A6E0000-0000-8000-8000-000000000001")!
    static let icon = UUID(uuidString: "1A6E0000-0000-8000-8000-000000000002")!
    static let other = UUID(uuidString: "1A6E0000-0000-8000-8000-000000000003")!
    static let message = UUID(uuidString: "8C1D0E55-0000-8000-8000-0000000000A1")!

    static let fullSize = TestPNG.rgb(width: 3840, height: 160)
    static let bulletIcon = TestPNG.rgb(width: 64, height: 64)

    @Test func theTestPNGHelperComputesStandardChecksums() {
        #expect(TestPNG.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(TestPNG.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(TestPNG.chunk("IEND", []) == [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
        #expect(Array(Self.fullSize.prefix(8)) == TestPNG.signature)
    }

    @Test func aFullSizeImageIsUploadedReviewedAndDeleted() async throws {
        try await withSimulator { harness in
            await harness.store.setMessageReviewDelay(3600)
            try await harness.client.uploadImage(Self.fullSize, imageIdentifier: Self.banner, imageSize: .fullSize)
            #expect(try await harness.client.getImageList().imageIdentifiers == [.init(imageIdentifier: Self.banner, imageState: .pending)])

            let duplicate = await apiFailure {
                try await harness.client.uploadImage(Self.fullSize, imageIdentifier: Self.banner, imageSize: .fullSize)
            }
            #expect(duplicate?.httpStatus == 409 && duplicate?.rawErrorCode == 4_090_000)

            harness.store.clock.advance(by: 3600)
            #expect(try await harness.client.getImageList().imageIdentifiers?.first?.imageState == .approved)
            try await harness.store.setImageState(Self.banner, .rejected)
            #expect(try await harness.client.getImageList().imageIdentifiers?.first?.imageState == .rejected)

            // The tallest full-size image is accepted too (greyscale keeps it at ~8 MB).
            let tallest = TestPNG.encode(width: 3840, height: 2160, colourType: .greyscale, pixel: [0x80])
            try await harness.client.uploadImage(tallest, imageIdentifier: Self.other, imageSize: .fullSize)
            #expect(try await harness.client.getImageList().imageIdentifiers?.count == 2)

            try await harness.client.deleteImage(imageIdentifier: Self.banner)
            #expect(try await harness.client.getImageList().imageIdentifiers == [.init(imageIdentifier: Self.other, imageState: .pending)])
            let gone = await apiFailure { try await harness.client.deleteImage(imageIdentifier: Self.banner) }
            #expect(gone?.httpStatus == 404 && gone?.rawErrorCode == 4_040_014)
        }
    }

    /// An image Apple refuses: what is uploaded, as which size, and the error code.
    struct Refusal: Sendable, CustomTestStringConvertible {
        let name: String
        let png: Data
        let size: ImageSize
        let code: Int64
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = {
        let valid = [UInt8](TestPNG.rgb(width: 3840, height: 160))
        var badCRC = valid
        badCRC[valid.count - 20] ^= 0xFF
        let noData = TestPNG.signature + TestPNG.chunk("IHDR", [0, 0, 0x0F, 0, 0, 0, 0, 0xA0, 8, 2, 0, 0, 0]) + TestPNG.chunk("IEND", [])
        return [
            Refusal(name: "3839 wide", png: TestPNG.rgb(width: 3839, height: 160), size: .fullSize, code: 4_000_216),
            Refusal(name: "3841 wide", png: TestPNG.rgb(width: 3841, height: 160), size: .fullSize, code: 4_000_216),
            Refusal(name: "159 high", png: TestPNG.rgb(width: 3840, height: 159), size: .fullSize, code: 4_000_216),
            Refusal(name: "2161 high", png: TestPNG.encode(width: 3840, height: 2161, colourType: .greyscale, pixel: [0]),
                    size: .fullSize, code: 4_000_216),
            Refusal(name: "a bullet-sized full-size image", png: Self.bulletIcon, size: .fullSize, code: 4_000_216),
            Refusal(name: "unknown imageSize", png: Self.bulletIcon, size: ImageSize(rawValue: "HUGE"), code: 4_000_216),
            Refusal(name: "RGBA", png: TestPNG.rgba(width: 3840, height: 160), size: .fullSize, code: 4_000_161),
            Refusal(name: "RGBA bullet", png: TestPNG.rgba(width: 64, height: 64), size: .bulletPoint, code: 4_000_161),
            Refusal(name: "greyscale with alpha", png: TestPNG.encode(width: 64, height: 64, colourType: .greyscaleAlpha, pixel: [0, 255]),
                    size: .bulletPoint, code: 4_000_161),
            Refusal(name: "tRNS", png: TestPNG.rgbWithTransparentColour(width: 3840, height: 160), size: .fullSize, code: 4_000_161),
            Refusal(name: "tRNS bullet", png: TestPNG.rgbWithTransparentColour(width: 64, height: 64), size: .bulletPoint, code: 4_000_161),
            Refusal(name: "not a PNG", png: Data("GIF89a, not a PNG at all".utf8), size: .fullSize, code: 4_000_161),
            Refusal(name: "empty", png: Data(), size: .bulletPoint, code: 4_000_161),
            Refusal(name: "truncated", png: Data(valid.dropLast(7)), size: .fullSize, code: 4_000_161),
            Refusal(name: "bad CRC", png: Data(badCRC), size: .fullSize, code: 4_000_161),
            Refusal(name: "no IDAT", png: Data(noData), size: .fullSize, code: 4_000_161),
        ]
    }()

    @Test(arguments: Self.refusals) func refusedImages(_ refusal: Refusal) async throws {
        try await withSimulator { harness in
            let failure = await apiFailure {
                try await harness.client.uploadImage(refusal.png, imageIdentifier: Self.banner, imageSize: refusal.size)
            }
            #expect(failure?.httpStatus == 400 && failure?.rawErrorCode == refusal.code)
            let images = try await harness.client.getImageList().imageIdentifiers
            #expect(images == [])
        }
    }

    @Test func bulletPointImagesAreCheckedForPNGAndTransparencyOnly() async throws {
        try await withSimulator { harness in
            try await harness.client.uploadImage(Self.bulletIcon, imageIdentifier: Self.icon, imageSize: .bulletPoint)
            try await harness.client.uploadImage(
                TestPNG.encode(width: 3, height: 500, colourType: .greyscale, pixel: [0x10]), imageIdentifier: Self.other, imageSize: .bulletPoint)
            #expect(try await harness.client.getImageList().imageIdentifiers?.map(\.imageState) == [.approved, .approved])
        }
    }

    @Test func anAppHoldsAtMost2000Images() async throws {
        try await withSimulator { harness in
            for index in 0..<1999 {
                try await harness.store.uploadImage(UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", index))!,
                                                    png: Self.bulletIcon, size: .bulletPoint)
            }
            try await harness.client.uploadImage(Self.bulletIcon, imageIdentifier: Self.icon, imageSize: .bulletPoint)
            let full = await apiFailure {
                try await harness.client.uploadImage(Self.bulletIcon, imageIdentifier: Self.other, imageSize: .bulletPoint)
            }
            #expect(full?.httpStatus == 403 && full?.rawErrorCode == 4_030_014)
            try await harness.client.deleteImage(imageIdentifier: Self.icon)
            try await harness.client.uploadImage(Self.bulletIcon, imageIdentifier: Self.other, imageSize: .bulletPoint)
            #expect(try await harness.client.getImageList().imageIdentifiers?.count == 2000)
        }
    }

    @Test func messagesShowUploadedImagesOnly() async throws {
        try await withSimulator { harness in
            let client = harness.client
            await harness.store.setMessageReviewDelay(60)
            try await client.uploadImage(Self.fullSize, imageIdentifier: Self.banner, imageSize: .fullSize)
            try await client.uploadImage(Self.bulletIcon, imageIdentifier: Self.icon, imageSize: .bulletPoint)
            let image = UploadMessageImage(imageIdentifier: Self.banner, altText: "A mountain at dawn")
            let bullets = [
                BulletPoint(text: "Every course", imageIdentifier: Self.icon, altText: "check"),
                BulletPoint(text: "Offline lessons", imageIdentifier: Self.icon, altText: "check"),
            ]

            // Apple's refusals, limits first, then images never uploaded.
            func refusal(_ body: UploadMessageRequestBody) async -> AppStoreAPIFailure? {
                await apiFailure { try await client.uploadMessage(messageIdentifier: Self.message, body) }
            }
            let unknownImage = await refusal(.init(header: "Stay", body: "Pro keeps it all.",
                                                   image: .init(imageIdentifier: Self.other, altText: "x")))
            #expect(unknownImage?.httpStatus == 404 && unknownImage?.rawErrorCode == 4_040_014)
            let unknownBullet = await refusal(.init(header: "Stay", body: "Pro keeps it all.", image: image,
                                                    bulletPoints: [.init(text: "More", imageIdentifier: Self.other, altText: "x")]))
            #expect(unknownBullet?.httpStatus == 404 && unknownBullet?.rawErrorCode == 4_040_014)
            let aboveNothing = await refusal(.init(header: "Stay", body: "Pro keeps it all.", headerPosition: .aboveImage))
            #expect(aboveNothing?.rawErrorCode == 4_000_224)
            let sixBullets = await refusal(.init(header: "Stay", body: "Pro keeps it all.", bulletPoints: Array(repeating: bullets[0], count: 6)))
            #expect(sixBullets?.rawErrorCode == 4_000_218)
            let longBullet = await refusal(.init(header: "Stay", body: "Pro keeps it all.",
                                                 bulletPoints: [.init(text: String(repeating: "t", count: 67), imageIdentifier: Self.icon, altText: "")]))
            #expect(longBullet?.rawErrorCode == 4_000_219)
            let longAlt = await refusal(.init(header: "Stay", body: "Pro keeps it all.",
                                              image: .init(imageIdentifier: Self.banner, altText: String(repeating: "a", count: 151))))
            #expect(longAlt?.rawErrorCode == 4_000_175)
            let oddPosition = await refusal(.init(header: "Stay", body: "Pro keeps it all.", image: image, headerPosition: .init(rawValue: "BELOW")))
            #expect(oddPosition?.httpStatus == 400)
            #expect(try await client.getMessageList().messageIdentifiers == [])

            // The full message: image, header above it, two bullet points (five is the limit).
            let full = UploadMessageRequestBody(header: "Before you go", body: "Pro keeps it all.", image: image,
                                                headerPosition: .aboveImage, bulletPoints: bullets)
            try await client.uploadMessage(messageIdentifier: Self.message, full)
            #expect(try await client.getMessageList().messageIdentifiers == [.init(messageIdentifier: Self.message, messageState: .pending)])
            try await client.uploadMessage(messageIdentifier: Self.other, .init(
                header: "Five", body: "Bullets.", bulletPoints: Array(repeating: bullets[0], count: 5)))

            // Images in use cannot be deleted.
            let inUse = await apiFailure { try await client.deleteImage(imageIdentifier: Self.banner) }
            #expect(inUse?.httpStatus == 403 && inUse?.rawErrorCode == 4_030_019)

            // The message is reviewed on its own; a default message needs its images approved too.
            try await harness.store.setImageState(Self.icon, .rejected)
            harness.store.clock.advance(by: 60)
            #expect(try await client.getMessageList().messageIdentifiers?.first { $0.messageIdentifier == Self.message }?.messageState == .approved)
            let request = DefaultConfigurationRequest(messageIdentifier: Self.message)
            let imageRejected = await apiFailure {
                try await client.configureDefaultMessage(productId: "com.example.pro", locale: "en-US", request)
            }
            #expect(imageRejected?.httpStatus == 403 && imageRejected?.rawErrorCode == 4_030_018)
            try await harness.store.setImageState(Self.icon, .approved)
            try await client.configureDefaultMessage(productId: "com.example.pro", locale: "en-US", request)

            // Once no message uses them, images can go.
            try await client.deleteMessage(messageIdentifier: Self.message)
            try await client.deleteImage(imageIdentifier: Self.banner)
            try await client.deleteMessage(messageIdentifier: Self.other)
            try await client.deleteImage(imageIdentifier: Self.icon)
            #expect(try await client.getImageList().imageIdentifiers == [])
        }
    }
}
