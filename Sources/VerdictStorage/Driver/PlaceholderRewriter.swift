/// Rewrites PostgreSQL-style `$n` placeholders for SQLite (`?n`), leaving quoted text alone.
enum PlaceholderRewriter {
    static func sqlite(_ sql: String) -> String {
        // Byte by byte: every character that matters is ASCII, and no byte of a multi-byte UTF-8
        // sequence is, so the text around them is copied unchanged.
        let dollar = UInt8(ascii: "$"), question = UInt8(ascii: "?")
        let single = UInt8(ascii: "'"), double = UInt8(ascii: "\"")
        var output: [UInt8] = []
        output.reserveCapacity(sql.utf8.count)
        var quote: UInt8?
        var previous: UInt8?
        for byte in sql.utf8 {
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == single || byte == double {
                quote = byte
            } else if previous == dollar, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                output[output.count - 1] = question
            }
            output.append(byte)
            previous = byte
        }
        return String(decoding: output, as: UTF8.self)
    }
}
