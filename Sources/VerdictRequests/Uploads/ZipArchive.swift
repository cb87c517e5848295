import CZlib
import Foundation

/// Reads the files of a zip archive (what `zip -r`, Finder's "Compress" and Python's `zipfile`
/// write): the central directory at the end, then each entry, stored or deflated (inflated with
/// the system's zlib), its CRC-32 and size checked. Folders are skipped; encrypted entries,
/// zip64 archives and other methods are refused. The inflated total is bounded, so a small
/// archive cannot expand without limit.
public enum ZipArchive {
    /// A zip archive that cannot be read.
    public struct Malformed: Error, Sendable, CustomStringConvertible {
        public let reason: String
        public var description: String { "not a readable zip archive: \(reason)" }
    }

    /// The regular files: path (as stored) → contents. At most `limit` bytes inflated in all.
    public static func files(in data: Data, limit: Int) throws(Malformed) -> [(path: String, contents: Data)] {
        let bytes = [UInt8](data)
        guard let end = endOfCentralDirectory(bytes) else { throw Malformed(reason: "no end of central directory") }
        guard read16(bytes, end + 4) == 0, read16(bytes, end + 6) == 0 else { throw Malformed(reason: "multi-disk archives are not read") }
        let count = Int(read16(bytes, end + 10))
        let size = Int(read32(bytes, end + 12))
        var offset = Int(read32(bytes, end + 16))
        guard offset != 0xFFFF_FFFF, offset + size <= end else { throw Malformed(reason: "the central directory is out of bounds") }
        var files: [(path: String, contents: Data)] = []
        var inflated = 0
        for _ in 0..<count {
            guard offset + 46 <= end, read32(bytes, offset) == 0x0201_4b50 else {
                throw Malformed(reason: "bad central directory entry at byte \(offset)")
            }
            let flags = read16(bytes, offset + 8)
            let method = read16(bytes, offset + 10)
            let crc = read32(bytes, offset + 16)
            let compressed = Int(read32(bytes, offset + 20))
            let uncompressed = Int(read32(bytes, offset + 24))
            let nameLength = Int(read16(bytes, offset + 28))
            let extraLength = Int(read16(bytes, offset + 30))
            let commentLength = Int(read16(bytes, offset + 32))
            let local = Int(read32(bytes, offset + 42))
            guard offset + 46 + nameLength <= end else { throw Malformed(reason: "an entry name runs past the directory") }
            let name = String(decoding: bytes[offset + 46..<offset + 46 + nameLength], as: UTF8.self)
            offset += 46 + nameLength + extraLength + commentLength
            if name.hasSuffix("/") { continue }
            guard flags & 1 == 0 else { throw Malformed(reason: "'\(name)' is encrypted") }
            guard compressed != 0xFFFF_FFFF, uncompressed != 0xFFFF_FFFF, local != 0xFFFF_FFFF else {
                throw Malformed(reason: "zip64 archives are not read")
            }
            inflated += uncompressed
            guard inflated <= limit else { throw Malformed(reason: "the files are larger than \(limit) bytes") }
            guard local + 30 <= bytes.count, read32(bytes, local) == 0x0403_4b50 else {
                throw Malformed(reason: "bad local header for '\(name)'")
            }
            let start = local + 30 + Int(read16(bytes, local + 26)) + Int(read16(bytes, local + 28))
            guard start + compressed <= bytes.count else { throw Malformed(reason: "'\(name)' runs past the end") }
            let stored = Data(bytes[start..<start + compressed])
            let contents: Data
            switch method {
            case 0: contents = stored
            case 8: contents = try inflate(stored, expected: uncompressed, name: name)
            default: throw Malformed(reason: "'\(name)' uses compression method \(method) (only stored and deflate are read)")
            }
            guard contents.count == uncompressed, checksum(contents) == crc else {
                throw Malformed(reason: "'\(name)' does not match its size or CRC-32")
            }
            files.append((name, contents))
        }
        return files
    }

    /// The offset of the end-of-central-directory record, searched from the end (past a comment).
    private static func endOfCentralDirectory(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 22 else { return nil }
        var offset = bytes.count - 22
        let lowest = max(0, bytes.count - 22 - 65_535)
        while offset >= lowest {
            if read32(bytes, offset) == 0x0605_4b50 { return offset }
            offset -= 1
        }
        return nil
    }

    /// Raw deflate (no zlib or gzip header), to exactly `expected` bytes.
    private static func inflate(_ input: Data, expected: Int, name: String) throws(Malformed) -> Data {
        var output = [UInt8](repeating: 0, count: max(1, expected))
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Malformed(reason: "zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var input = [UInt8](input)
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END, Int(stream.total_out) == expected else {
            throw Malformed(reason: "'\(name)' does not inflate to its declared size")
        }
        return Data(output.prefix(expected))
    }

    private static func checksum(_ data: Data) -> UInt32 {
        data.withUnsafeBytes { buffer in
            UInt32(crc32(0, buffer.bindMemory(to: UInt8.self).baseAddress, UInt32(buffer.count)))
        }
    }

    private static func read16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        guard at + 2 <= bytes.count else { return 0 }
        return UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private static func read32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        guard at + 4 <= bytes.count else { return 0 }
        return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
}
