/// A JSON reader over UTF-8 bytes, without Foundation's decoder: values straight into
/// ``FactData`` (no `Decodable` round trip, no error thrown per probed type), strings, and values
/// skipped unread. Reads what Foundation's `JSONDecoder` reads into ``FactData`` (RFC 8259 JSON
/// plus a trailing comma; the first of duplicate keys; numbers as ``number()`` says).
struct JSONReader {
    /// Why the text is not JSON, and where.
    struct Failure: Error, CustomStringConvertible {
        let offset: Int
        let message: String
        var description: String { "\(message) at byte \(offset)" }
    }

    /// Deepest nesting read (as Foundation's decoder).
    static let maximumDepth = 512

    let bytes: UnsafeRawBufferPointer
    /// The offset of the next byte to read.
    var position = 0
    private var depth = 0
    /// Whether the bytes are known to be valid UTF-8 (they come from a `String`): then strings
    /// are not validated again.
    let validUTF8: Bool

    /// A reader over `bytes`, which may hold anything.
    init(_ bytes: UnsafeRawBufferPointer) {
        self.init(bytes, validUTF8: false)
    }

    private init(_ bytes: UnsafeRawBufferPointer, validUTF8: Bool) {
        self.bytes = bytes
        self.validUTF8 = validUTF8
    }

    /// Runs `body` with a reader over `text`'s UTF-8 bytes, or the bytes in `range` (no copy for
    /// a native string).
    static func reading<T, E: Error>(_ text: String, range: Range<Int>? = nil, _ body: (inout JSONReader) throws(E) -> T)
        throws(E) -> T {
        var text = text
        let result: Result<T, E> = text.withUTF8 { buffer in
            let bytes = UnsafeRawBufferPointer(buffer)
            var reader = JSONReader(range.map { UnsafeRawBufferPointer(rebasing: bytes[$0]) } ?? bytes, validUTF8: true)
            return Result { () throws(E) in try body(&reader) }
        }
        return try result.get()
    }

    /// The whole text as one value (nothing but whitespace may follow).
    mutating func document() throws(Failure) -> FactData {
        let value = try self.value()
        try end()
        return value
    }

    /// Fails unless only whitespace is left.
    mutating func end() throws(Failure) {
        skipWhitespace()
        guard position == bytes.count else { throw failure("unexpected text after the value") }
    }

    /// The next value.
    mutating func value() throws(Failure) -> FactData {
        skipWhitespace()
        guard position < bytes.count else { throw failure("unexpected end of text") }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            var entries: [String: FactData] = [:]
            // The first of duplicate keys counts, as for Foundation's decoder.
            try members { (reader: inout JSONReader, key: Key) throws(Failure) in
                let value = try reader.value()
                let name = key.text
                if entries[name] == nil { entries[name] = value }
            }
            return .object(entries)
        case UInt8(ascii: "["):
            var items: [FactData] = []
            try elements { (reader: inout JSONReader) throws(Failure) in items.append(try reader.value()) }
            return .list(items)
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default:
            return try number()
        }
    }

    /// Skips the next value, checking its syntax but making nothing of it; returns where it
    /// starts and ends.
    @discardableResult
    mutating func skipValue() throws(Failure) -> Range<Int> {
        skipWhitespace()
        let start = position
        guard position < bytes.count else { throw failure("unexpected end of text") }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            try open(UInt8(ascii: "{"))
            defer { depth -= 1 }
            while !closes(UInt8(ascii: "}")) {
                try skipString()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                try skipValue()
                try separator(before: UInt8(ascii: "}"))
            }
        case UInt8(ascii: "["):
            try elements { (reader: inout JSONReader) throws(Failure) in try reader.skipValue() }
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "t"):
            try literal("true")
        case UInt8(ascii: "f"):
            try literal("false")
        case UInt8(ascii: "n"):
            try literal("null")
        default:
            // Checked as ``number()`` reads it: a number too large for a double is refused.
            if try !scanNumber() || position - start > 18 {
                _ = try number(from: start)
            }
        }
        return start..<position
    }

    /// Skips the next value by its structure alone — brackets, and strings with their escapes
    /// stepped over — without checking what lies between: for a part of a document written by
    /// Verdict itself that is never read (a decision's trace). Returns where it starts and ends.
    @discardableResult
    mutating func skipStructure() throws(Failure) -> Range<Int> {
        skipWhitespace()
        let start = position
        guard peek == UInt8(ascii: "{") || peek == UInt8(ascii: "[") else { return try skipValue() }
        var open = 0
        while let byte = peek {
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                while true {
                    skipPlain()
                    guard let next = peek else { throw failure("unterminated string") }
                    position += next == UInt8(ascii: "\\") ? 2 : 1
                    if next == UInt8(ascii: "\"") { break }
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                open += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                open -= 1
                if open == 0 { return start..<position }
            default:
                break
            }
        }
        throw failure("unexpected end of text")
    }

    /// Runs `read` on the next value; returns where the value starts and ends.
    mutating func measuring(_ read: (inout JSONReader) throws(Failure) -> Void) throws(Failure) -> Range<Int> {
        skipWhitespace()
        let start = position
        try read(&self)
        return start..<position
    }

    /// Reads an object, calling `member` with the reader positioned at each value, which it must read or skip.
    /// A comma after the last member is accepted, as Foundation's decoder accepts it.
    mutating func members(_ member: (inout JSONReader, Key) throws(Failure) -> Void) throws(Failure) {
        try enterObject()
        var first = true
        while let key = try nextKey(first: first) {
            first = false
            try member(&self, key)
        }
    }

    /// Enters the object at the reader: then ``nextKey(first:)`` gives its members one at a time
    /// (the loop of ``members(_:)`` without a closure, for the hottest paths).
    mutating func enterObject() throws(Failure) {
        try open(UInt8(ascii: "{"))
    }

    /// The next member's name, the reader then at its value, which the caller must read or skip;
    /// nil when the object ends (and is left). `first`: no member was read yet.
    mutating func nextKey(first: Bool) throws(Failure) -> Key? {
        if !first { try separator(before: UInt8(ascii: "}")) }
        if closes(UInt8(ascii: "}")) {
            depth -= 1
            return nil
        }
        let key = try self.key()
        skipWhitespace()
        try expect(UInt8(ascii: ":"))
        return key
    }

    /// Reads an array, calling `element` with the reader positioned at each value, which it must read or skip.
    /// A comma after the last element is accepted, as Foundation's decoder accepts it.
    mutating func elements(_ element: (inout JSONReader) throws(Failure) -> Void) throws(Failure) {
        try enterArray()
        var first = true
        while try nextElement(first: first) {
            first = false
            try element(&self)
        }
    }

    /// Enters the array at the reader: then ``nextElement(first:)`` steps through its elements.
    mutating func enterArray() throws(Failure) {
        try open(UInt8(ascii: "["))
    }

    /// Whether another element follows (the reader then at it, which the caller must read or
    /// skip); false when the array ends (and is left). `first`: no element was read yet.
    mutating func nextElement(first: Bool) throws(Failure) -> Bool {
        if !first { try separator(before: UInt8(ascii: "]")) }
        guard closes(UInt8(ascii: "]")) else { return true }
        depth -= 1
        return false
    }

    /// Whether the next value is `null` (not consumed).
    mutating func peekNull() throws(Failure) -> Bool { try peekValue() == UInt8(ascii: "n") }
    /// Whether the next value is an object (not consumed).
    mutating func peekObject() throws(Failure) -> Bool { try peekValue() == UInt8(ascii: "{") }
    /// Whether the next value is a string (not consumed).
    mutating func peekString() throws(Failure) -> Bool { try peekValue() == UInt8(ascii: "\"") }
    /// Whether the next value is an array (not consumed).
    mutating func peekArray() throws(Failure) -> Bool { try peekValue() == UInt8(ascii: "[") }

    // MARK: - Pieces

    /// The first byte of the next value.
    private mutating func peekValue() throws(Failure) -> UInt8 {
        skipWhitespace()
        guard let byte = peek else { throw failure("unexpected end of text") }
        return byte
    }

    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// Enters an object or array at its opening `bracket`.
    private mutating func open(_ bracket: UInt8) throws(Failure) {
        skipWhitespace()
        try expect(bracket)
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("nested too deeply") }
    }

    /// Whether the object or array ends here (consuming its closing `bracket`).
    private mutating func closes(_ bracket: UInt8) -> Bool {
        skipWhitespace()
        guard peek == bracket else { return false }
        position += 1
        return true
    }

    /// After a member or element: a comma, or the closing `bracket` (left for ``closes(_:)``).
    private mutating func separator(before bracket: UInt8) throws(Failure) {
        skipWhitespace()
        if peek == UInt8(ascii: ",") {
            position += 1
        } else if peek != bracket {
            throw failure("expected ',' or '\(Character(Unicode.Scalar(bracket)))'")
        }
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    mutating func expect(_ byte: UInt8) throws(Failure) {
        guard peek == byte else { throw failure("expected '\(Character(Unicode.Scalar(byte)))'") }
        position += 1
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard position + expected.count <= bytes.count,
              expected.indices.allSatisfy({ bytes[position + $0] == expected[$0] }) else { throw failure("invalid literal") }
        position += expected.count
    }

    /// A number: an integer when it is written as one and fits 64 bits, or when its value is a
    /// whole number that does (`1.0`, `1e3`), as `JSONDecoder` decodes `Int64`; any other a decimal.
    private mutating func number() throws(Failure) -> FactData {
        let start = position
        let integral = try scanNumber()
        return try number(from: start, integral: integral)
    }

    /// The next value when it is a number written as an integer of at most 18 digits (no
    /// fraction, no exponent: what ``value()`` reads as that integer); else nil, and nothing is
    /// read.
    mutating func integer() throws(Failure) -> Int64? {
        skipWhitespace()
        let start = position
        guard let first = peek, first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")),
              try scanNumber() else {
            position = start
            return nil
        }
        let negative = first == UInt8(ascii: "-")
        let digits = (negative ? start + 1 : start)..<position
        guard digits.count <= 18 else {
            position = start
            return nil
        }
        var value: Int64 = 0
        for offset in digits { value = value * 10 + Int64(bytes[offset] - UInt8(ascii: "0")) }
        return negative ? -value : value
    }

    /// The number scanned from `start` to the position.
    private func number(from start: Int, integral: Bool = false) throws(Failure) -> FactData {
        let token = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
        let text = String(decoding: token, as: UTF8.self)
        if integral, let value = Int64(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else { throw failure("number out of range") }
        if let whole = Int64(exactly: value) { return .int(whole) }
        return .decimal(value)
    }

    /// Moves past a number; returns whether it is written as an integer (no fraction, no exponent).
    private mutating func scanNumber() throws(Failure) -> Bool {
        var integral = true
        if peek == UInt8(ascii: "-") { position += 1 }
        guard try digits(leadingZeroAllowed: false) else { throw failure("invalid value") }
        if peek == UInt8(ascii: ".") {
            integral = false
            position += 1
            guard try digits(leadingZeroAllowed: true) else { throw failure("invalid number") }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            integral = false
            position += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
            guard try digits(leadingZeroAllowed: true) else { throw failure("invalid number") }
        }
        return integral
    }

    /// Digits at the position; false when there are none. A leading zero must stand alone unless allowed.
    private mutating func digits(leadingZeroAllowed: Bool) throws(Failure) -> Bool {
        let start = position
        while let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { position += 1 }
        if !leadingZeroAllowed, position - start > 1, bytes[start] == UInt8(ascii: "0") {
            throw failure("number with a leading zero")
        }
        return position > start
    }

    func failure(_ message: String) -> Failure {
        Failure(offset: position, message: message)
    }
}
