import AppStoreServer
import Foundation
import Testing

/// `PNGImageHeader.retentionImageProblem(size:)`, which `verdict rules check` applies to the
/// images of `messages.yaml`: Apple's published requirements, on PNGs made for the purpose.
@Suite struct PNGImageHeaderTests {
    @Test func opaqueImagesOfTheRightSizePassAndEveryOtherIsNamed() throws {
        let banner = try PNGImageHeader.read(TestPNG.rgb(width: 3840, height: 160, red: 1, green: 2, blue: 3))
        #expect(banner.retentionImageProblem(size: "FULL_SIZE") == nil)
        #expect(banner.width == 3840 && banner.height == 160 && banner.colourType == 2)
        let icon = try PNGImageHeader.read(TestPNG.rgb(width: 64, height: 64, red: 9, green: 9, blue: 9))
        #expect(icon.retentionImageProblem(size: "BULLET_POINT") == nil)
        #expect(icon.retentionImageProblem(size: "FULL_SIZE") == "it is 64 × 64 px; a FULL_SIZE image is 3840 px wide and 160–2160 px high")
        let tall = try PNGImageHeader.read(TestPNG.rgb(width: 3840, height: 2161, red: 0, green: 0, blue: 0))
        #expect(tall.retentionImageProblem(size: "FULL_SIZE")?.contains("3840 × 2161") == true)
        let alpha = try PNGImageHeader.read(TestPNG.rgba(width: 64, height: 64, alpha: 255))
        #expect(alpha.retentionImageProblem(size: "BULLET_POINT")?.hasPrefix("it has transparency (an alpha channel)") == true)
        let keyed = try PNGImageHeader.read(TestPNG.rgbWithTransparentColour(width: 64, height: 64))
        #expect(keyed.retentionImageProblem(size: "BULLET_POINT")?.hasPrefix("it has transparency (a tRNS chunk)") == true)
        #expect(throws: PNGImageHeader.Problem.self) { try PNGImageHeader.read(Data("GIF89a".utf8)) }
    }
}
