#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension JSONReader {
    /// An object member's name as written: its bytes when it has no escapes (compared without
    /// making a string), else the decoded name. Valid only while its member is being read.
    struct Key {
        /// The bytes between the quotes.
        let bytes: UnsafeRawBufferPointer
        /// The decoded name, when it had escapes or the text is not known to be valid UTF-8.
        let decoded: String?

        /// The name.
        var text: String { decoded ?? String(decoding: bytes, as: UTF8.self) }

        /// Whether the name is `name`.
        func matches(_ name: String) -> Bool {
            if let decoded { return decoded == name }
            return name.isUTF8(bytes)
        }
    }

    /// The next value, which must be a string.
    mutating func string() throws(Failure) -> String {
        skipWhitespace()
        try expect(UInt8(ascii: "\""))
        let start = position
        skipPlain()
        guard let byte = peek else { throw failure("unterminated string") }
        if byte == UInt8(ascii: "\"") {
            position += 1
            return try text(start..<position - 1)
        }
        return try escapedString(from: start)
    }

    /// The bytes of the next value, a string, when it has no escapes and the text is known to be
    /// valid UTF-8 (they are the string's UTF-8); else nil, and nothing is read.
    mutating func plainString() throws(Failure) -> UnsafeRawBufferPointer? {
        guard validUTF8 else { return nil }
        skipWhitespace()
        let start = position
        try expect(UInt8(ascii: "\""))
        skipPlain()
        guard peek == UInt8(ascii: "\"") else {
            position = start
            return nil
        }
        position += 1
        return UnsafeRawBufferPointer(rebasing: bytes[start + 1..<position - 1])
    }

    /// The next member name.
    mutating func key() throws(Failure) -> Key {
        skipWhitespace()
        let start = position + 1
        try skipString()
        let bytes = UnsafeRawBufferPointer(rebasing: self.bytes[start..<position - 1])
        if validUTF8, !bytes.contains(UInt8(ascii: "\\")) { return Key(bytes: bytes, decoded: nil) }
        position = start - 1
        return Key(bytes: bytes, decoded: try string())
    }

    /// Skips a string, checking its escapes (and its UTF-8 when not known to be valid).
    mutating func skipString() throws(Failure) {
        skipWhitespace()
        try expect(UInt8(ascii: "\""))
        let start = position
        while true {
            skipPlain()
            guard let byte = peek else { throw failure("unterminated string") }
            position += 1
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 { throw failure("control character in a string") }
            _ = try escape()
        }
        if !validUTF8 { _ = try text(start..<position - 1) }
    }

    // MARK: - Pieces

    /// Moves past the bytes that stand for themselves in a string (not a quote, a backslash or a
    /// control character), eight at a time while it can.
    mutating func skipPlain() {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while position + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self)
            let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
            let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
            // A high bit per byte that may be a quote, a backslash or below 0x20 (exact when none is).
            let special = ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes) | ((word &- ones &* 0x20) & ~word)
            if special & highs != 0 { break }
            position += 8
        }
        while let byte = peek, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20 { position += 1 }
    }

    /// The UTF-8 in `range` as a string (validated unless the whole text is known to be valid).
    private func text(_ range: Range<Int>) throws(Failure) -> String {
        let slice = UnsafeRawBufferPointer(rebasing: bytes[range])
        if validUTF8 { return String(decoding: slice, as: UTF8.self) }
        guard let text = String(validating: slice, as: UTF8.self) else { throw failure("invalid UTF-8 in a string") }
        return text
    }

    /// The rest of a string that has escapes, from its first byte at `start`: plain runs copied
    /// whole, escapes decoded.
    private mutating func escapedString(from start: Int) throws(Failure) -> String {
        var utf8: [UInt8] = []
        var run = start
        while true {
            skipPlain()
            utf8.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[run..<position]))
            guard let byte = peek else { throw failure("unterminated string") }
            position += 1
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 { throw failure("control character in a string") }
            let decoded = try escape()
            if decoded <= 0x7F {
                utf8.append(UInt8(decoded))
            } else {
                utf8.append(contentsOf: String(Character(Unicode.Scalar(decoded)!)).utf8)
            }
            run = position
        }
        if validUTF8 { return String(decoding: utf8, as: UTF8.self) }
        guard let text = String(validating: utf8, as: UTF8.self) else { throw failure("invalid UTF-8 in a string") }
        return text
    }

    /// The scalar an escape stands for (after its backslash), a surrogate pair joined.
    private mutating func escape() throws(Failure) -> UInt32 {
        guard let escape = peek else { throw failure("unterminated string") }
        position += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return UInt32(escape)
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "t"): return 0x09
        case UInt8(ascii: "u"): return try unicodeEscape()
        default: throw failure("invalid escape")
        }
    }

    /// The scalar of a `\uXXXX` escape (after `\u`), a surrogate pair joined.
    private mutating func unicodeEscape() throws(Failure) -> UInt32 {
        let high = try hex4()
        if high >= 0xD800, high < 0xDC00 {
            guard position + 6 <= bytes.count, bytes[position] == UInt8(ascii: "\\"),
                  bytes[position + 1] == UInt8(ascii: "u") else { throw failure("unpaired surrogate") }
            position += 2
            let low = try hex4()
            guard low >= 0xDC00, low < 0xE000 else { throw failure("invalid surrogate pair") }
            return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        }
        guard Unicode.Scalar(high) != nil else { throw failure("unpaired surrogate") }
        return high
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard position + 4 <= bytes.count else { throw failure("short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }
}

extension String {
    /// Whether the string's UTF-8 is exactly `bytes` (no string made of them).
    func isUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard utf8.count == bytes.count else { return false }
        return utf8.withContiguousStorageIfAvailable { stored in
            stored.isEmpty || memcmp(stored.baseAddress!, bytes.baseAddress!, stored.count) == 0
        } ?? utf8.elementsEqual(bytes)
    }
}
