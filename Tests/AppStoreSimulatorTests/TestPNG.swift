import Foundation

/// PNG files for tests, built byte by byte: one solid colour, the zlib stream made of stored
/// (uncompressed) deflate blocks with its Adler-32, every chunk with its CRC-32. No image library
/// needed; a 3840 × 160 RGB image is about 1.8 MB.
enum TestPNG {
    /// PNG colour types.
    enum ColourType: UInt8 {
        case greyscale = 0, rgb = 2, greyscaleAlpha = 4, rgba = 6

        var channels: Int {
            switch self {
            case .greyscale: 1
            case .rgb: 3
            case .greyscaleAlpha: 2
            case .rgba: 4
            }
        }
    }

    /// The eight bytes every PNG starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// An opaque 8-bit RGB image of one colour.
    static func rgb(width: Int, height: Int, red: UInt8 = 0x20, green: UInt8 = 0x60, blue: UInt8 = 0xC0) -> Data {
        encode(width: width, height: height, colourType: .rgb, pixel: [red, green, blue])
    }

    /// An 8-bit RGBA image (colour type 6: has an alpha channel, even if every pixel is opaque).
    static func rgba(width: Int, height: Int, alpha: UInt8 = 0xFF) -> Data {
        encode(width: width, height: height, colourType: .rgba, pixel: [0x20, 0x60, 0xC0, alpha])
    }

    /// An RGB image with a `tRNS` chunk making its own colour transparent.
    static func rgbWithTransparentColour(width: Int, height: Int) -> Data {
        encode(width: width, height: height, colourType: .rgb, pixel: [0x20, 0x60, 0xC0],
               chunksBeforeData: [("tRNS", [0x00, 0x20, 0x00, 0x60, 0x00, 0xC0])])
    }

    /// A complete PNG: signature, `IHDR` (8-bit, no interlace), `chunksBeforeData`, one `IDAT`
    /// holding every row (filter 0 + `pixel` repeated `width` times), `IEND`.
    static func encode(
        width: Int, height: Int, colourType: ColourType, pixel: [UInt8], chunksBeforeData: [(String, [UInt8])] = []
    ) -> Data {
        precondition(pixel.count == colourType.channels, "one byte per channel")
        var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [8, colourType.rawValue, 0, 0, 0]
        var row: [UInt8] = [0]
        row.reserveCapacity(1 + width * pixel.count)
        for _ in 0..<width { row += pixel }
        var raw: [UInt8] = []
        raw.reserveCapacity(row.count * height)
        for _ in 0..<height { raw += row }
        var bytes = signature + chunk("IHDR", header)
        for (type, data) in chunksBeforeData { bytes += chunk(type, data) }
        bytes += chunk("IDAT", zlibStored(raw)) + chunk("IEND", [])
        return Data(bytes)
    }

    /// One chunk: length, type, data, CRC-32 of type and data.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        precondition(typeBytes.count == 4, "a chunk type is four letters")
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    /// A zlib stream (RFC 1950) of stored deflate blocks (RFC 1951 BTYPE 00), at most 65535 bytes each.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        out.reserveCapacity(data.count + data.count / 65535 * 5 + 16)
        var offset = 0
        repeat {
            let count = min(65535, data.count - offset)
            let final: UInt8 = offset + count == data.count ? 1 : 0
            out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[offset..<(offset + count)]
            offset += count
        } while offset < data.count
        return out + bigEndian(adler32(data))
    }

    /// CRC-32 as PNG uses it (ISO 3309, polynomial 0xEDB88320 reflected).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in buffer { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
            return crc ^ 0xFFFF_FFFF
        }
    }

    /// Adler-32 as zlib uses it.
    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            var a: UInt32 = 1, b: UInt32 = 0
            var index = 0
            while index < buffer.count {
                // 5552 bytes keep the sums below 2^32 before the modulo.
                let end = min(index + 5552, buffer.count)
                while index < end {
                    a += UInt32(buffer[index])
                    b += a
                    index += 1
                }
                a %= 65521
                b %= 65521
            }
            return b << 16 | a
        }
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }
}
