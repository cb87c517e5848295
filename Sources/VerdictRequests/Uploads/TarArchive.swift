import Foundation

/// Reads the regular files of a tar archive (POSIX ustar and GNU; what `tar -cf` writes): 512-byte
/// headers with octal sizes, contents padded to 512 bytes, two zero blocks at the end. Long
/// names (GNU `L` records and pax `x` headers) are honoured for the following entry; links,
/// folders and other entry types are skipped.
public enum TarArchive {
    /// A tar archive that cannot be read.
    public struct Malformed: Error, Sendable, CustomStringConvertible {
        public let reason: String
        public var description: String { "not a tar archive: \(reason)" }
    }

    /// The regular files: path (as stored, without a leading `./`) → contents.
    public static func files(in data: Data) throws(Malformed) -> [(path: String, contents: Data)] {
        let bytes = [UInt8](data)
        var files: [(path: String, contents: Data)] = []
        var offset = 0
        var pendingName: String?
        while offset + 512 <= bytes.count {
            let header = bytes[offset..<offset + 512]
            if header.allSatisfy({ $0 == 0 }) { return files }
            guard checksumMatches(header) else { throw Malformed(reason: "bad header checksum at byte \(offset)") }
            guard let size = octal(header, 124, 12), size >= 0 else {
                throw Malformed(reason: "bad size field at byte \(offset)")
            }
            let start = offset + 512
            guard start + size <= bytes.count else { throw Malformed(reason: "an entry runs past the end") }
            let contents = Data(bytes[start..<start + size])
            let type = header[header.startIndex + 156]
            switch type {
            case UInt8(ascii: "L"):
                pendingName = String(decoding: contents.prefix { $0 != 0 }, as: UTF8.self)
            case UInt8(ascii: "x"):
                pendingName = paxPath(contents) ?? pendingName
            case 0, UInt8(ascii: "0"):
                var name = pendingName ?? (text(header, 345, 155).map { $0.isEmpty ? "" : $0 + "/" } ?? "") + (text(header, 0, 100) ?? "")
                while name.hasPrefix("./") { name.removeFirst(2) }
                files.append((name, contents))
                pendingName = nil
            default:
                pendingName = nil
            }
            offset = start + (size + 511) / 512 * 512
        }
        throw Malformed(reason: "no end-of-archive blocks")
    }

    private static func checksumMatches(_ header: ArraySlice<UInt8>) -> Bool {
        guard let stored = octal(header, 148, 8) else { return false }
        var sum = 0
        for (index, byte) in header.enumerated() { sum += (148..<156).contains(index) ? 32 : Int(byte) }
        return sum == stored
    }

    /// An octal number field: leading spaces, digits, then NUL or space padding.
    private static func octal(_ header: ArraySlice<UInt8>, _ at: Int, _ length: Int) -> Int? {
        let digits = header.dropFirst(at).prefix(length).drop { $0 == 32 }.prefix { $0 != 0 && $0 != 32 }
        guard !digits.isEmpty, digits.count <= 12 else { return nil }
        var value = 0
        for byte in digits {
            guard (48...55).contains(byte) else { return nil }
            value = value * 8 + Int(byte - 48)
        }
        return value
    }

    private static func text(_ header: ArraySlice<UInt8>, _ at: Int, _ length: Int) -> String? {
        String(decoding: header.dropFirst(at).prefix(length).prefix { $0 != 0 }, as: UTF8.self)
    }

    /// The `path` record of a pax extended header (`LEN path=VALUE\n` records).
    private static func paxPath(_ contents: Data) -> String? {
        for record in String(decoding: contents, as: UTF8.self).split(separator: "\n") {
            guard let space = record.firstIndex(of: " ") else { continue }
            let pair = record[record.index(after: space)...]
            if pair.hasPrefix("path=") { return String(pair.dropFirst(5)) }
        }
        return nil
    }
}
