import Foundation

/// What a PNG file says about itself, read as Retention Messaging judges an image: the
/// signature, the chunk structure (lengths, CRC-32 of every chunk, `IHDR` first, at least one
/// `IDAT`, `IEND` last, no unknown critical chunk) and `IHDR`'s width, height, bit depth and
/// colour type. The pixel data itself is not inflated. The bundle checker reads the images of
/// `messages.yaml` with it, and the simulator the images uploaded to it.
public struct PNGImageHeader: Equatable, Sendable {
    /// Why bytes are not a usable PNG.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        case notPNG(String)

        public var description: String {
            switch self {
            case .notPNG(let reason): "not a PNG: \(reason)"
            }
        }
    }

    public let width: Int
    public let height: Int
    public let bitDepth: UInt8
    /// 0 greyscale, 2 RGB, 3 palette, 4 greyscale + alpha, 6 RGBA.
    public let colourType: UInt8
    /// Whether a `tRNS` chunk (transparency for a colour, grey level or palette entry) is present.
    public let hasTransparencyChunk: Bool

    /// Whether any pixel may be transparent: an alpha channel (colour types 4 and 6) or `tRNS`.
    public var hasTransparency: Bool { colourType == 4 || colourType == 6 || hasTransparencyChunk }

    /// Apple's full-size image: exactly this wide, and ``fullSizeHeights`` high.
    public static let fullSizeWidth = 3840
    public static let fullSizeHeights = 160...2160

    /// Why Retention Messaging would refuse this image as one of `size` (`FULL_SIZE` or
    /// `BULLET_POINT`): transparency, or a full-size image of the wrong size; nil when it meets
    /// Apple's published requirements (Apple publishes no pixel size for bullet points).
    public func retentionImageProblem(size: String) -> String? {
        if hasTransparency {
            return "it has transparency (\(hasTransparencyChunk ? "a tRNS chunk" : "an alpha channel")); Apple accepts opaque PNGs only"
        }
        if size == "FULL_SIZE", width != Self.fullSizeWidth || !Self.fullSizeHeights.contains(height) {
            return "it is \(width) × \(height) px; a FULL_SIZE image is 3840 px wide and 160–2160 px high"
        }
        return nil
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The bit depths PNG allows for each colour type.
    private static let bitDepths: [UInt8: Set<UInt8>] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
    private static let criticalChunks: Set<String> = ["IHDR", "PLTE", "IDAT", "IEND"]

    /// Reads `data`, refusing anything that is not a well-formed PNG.
    public static func read(_ data: Data) throws(Problem) -> PNGImageHeader {
        let bytes = [UInt8](data)
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { throw .notPNG("no PNG signature") }
        var offset = 8
        var header: (width: Int, height: Int, depth: UInt8, colour: UInt8)?
        var sawTransparency = false, sawData = false, sawPalette = false, sawEnd = false
        while !sawEnd {
            guard bytes.count - offset >= 12 else { throw .notPNG("truncated chunk at byte \(offset)") }
            let length = Int(Self.uint32(bytes, offset))
            guard length <= Int(Int32.max), bytes.count - offset - 12 >= length else { throw .notPNG("chunk length past the end") }
            let typeBytes = bytes[(offset + 4)..<(offset + 8)]
            guard typeBytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                throw .notPNG("invalid chunk type at byte \(offset)")
            }
            let type = String(decoding: typeBytes, as: UTF8.self)
            let dataStart = offset + 8
            let storedCRC = Self.uint32(bytes, dataStart + length)
            guard Self.crc32(bytes[(offset + 4)..<(dataStart + length)]) == storedCRC else { throw .notPNG("bad CRC in \(type)") }
            if header == nil && type != "IHDR" { throw .notPNG("IHDR is not the first chunk") }
            switch type {
            case "IHDR":
                guard header == nil, length == 13 else { throw .notPNG("malformed IHDR") }
                let width = Int(Self.uint32(bytes, dataStart)), height = Int(Self.uint32(bytes, dataStart + 4))
                let depth = bytes[dataStart + 8], colour = bytes[dataStart + 9]
                guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else { throw .notPNG("zero or oversized dimensions") }
                guard Self.bitDepths[colour]?.contains(depth) == true else { throw .notPNG("colour type \(colour) with bit depth \(depth)") }
                guard bytes[dataStart + 10] == 0, bytes[dataStart + 11] == 0, bytes[dataStart + 12] <= 1 else {
                    throw .notPNG("unknown compression, filter or interlace method")
                }
                header = (width, height, depth, colour)
            case "PLTE": sawPalette = true
            case "IDAT": sawData = true
            case "tRNS": sawTransparency = true
            case "IEND": sawEnd = true
            default:
                // An unknown critical chunk (upper-case first letter) cannot be skipped by a decoder.
                if typeBytes.first.map({ $0 < 0x61 }) == true && !criticalChunks.contains(type) {
                    throw .notPNG("unknown critical chunk \(type)")
                }
            }
            offset = dataStart + length + 4
        }
        guard let header else { throw .notPNG("no IHDR") }
        guard sawData else { throw .notPNG("no IDAT") }
        guard header.colour != 3 || sawPalette else { throw .notPNG("palette image without PLTE") }
        return PNGImageHeader(width: header.width, height: header.height, bitDepth: header.depth, colourType: header.colour,
                         hasTransparencyChunk: sawTransparency)
    }

    private static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    /// CRC-32 (ISO 3309, as PNG uses it) of `bytes`.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in buffer { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
            return crc ^ 0xFFFF_FFFF
        }
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }
}
