import Foundation

/// Finds a member name that occurs twice in one object of a JSON text.
///
/// RFC 8259 leaves the meaning of repeated names open: Foundation's decoder keeps the first value,
/// most proxies, gateways and languages keep the last. A body with a repeated name can therefore
/// mean one thing to whatever inspected it on the way in and another to Verdict, so Verdict refuses
/// such bodies instead of picking one value.
///
/// The scan is one iterative pass over the bytes (no recursion, so nesting depth cannot exhaust
/// the stack). Names are compared after unescaping, as the decoder that follows compares them
/// (`"a"` and `"\u0061"` are the same name). Text that is not well-formed JSON is left to the
/// parser that follows: the scan reports only what it could read.
public enum JSONDuplicateKeys {
    /// The first repeated member name in `data`, or nil when no object repeats a name (or the text
    /// stops being JSON before one does).
    public static func firstDuplicate(in data: Data) -> String? {
        data.withUnsafeBytes { firstDuplicate(in: $0) }
    }

    /// The first repeated member name in the UTF-8 JSON text `bytes`.
    public static func firstDuplicate(in bytes: UnsafeRawBufferPointer) -> String? {
        var scanner = Scanner(bytes: bytes)
        return scanner.run()
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var index = 0
        /// The open containers, innermost last: true for an object, false for an array.
        var isObject: [Bool] = []
        /// The names seen so far in each open object, innermost last (mutated in place).
        var names: [Set<String>] = []
        /// True right after `{` or after `,` inside an object: the next string is a name.
        var expectingName = false

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        mutating func run() -> String? {
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "{"):
                    isObject.append(true)
                    names.append([])
                    expectingName = true
                    index += 1
                case UInt8(ascii: "["):
                    isObject.append(false)
                    expectingName = false
                    index += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard let object = isObject.popLast() else { return nil }
                    if object { names.removeLast() }
                    expectingName = false
                    index += 1
                case UInt8(ascii: ","):
                    expectingName = isObject.last == true
                    index += 1
                case UInt8(ascii: "\""):
                    guard let text = readString() else { return nil }
                    guard expectingName, isObject.last == true else { continue }
                    expectingName = false
                    guard names[names.count - 1].insert(text).inserted else { return text }
                default:
                    // Whitespace, ':', numbers and literals carry no names.
                    index += 1
                }
            }
            return nil
        }

        /// Reads the string starting at the opening quote at `index` and returns it unescaped;
        /// nil when it is not a well-formed JSON string.
        mutating func readString() -> String? {
            index += 1
            let start = index
            var escaped = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                    index += 1
                    return escaped ? Self.unescape(raw) : String(decoding: raw, as: UTF8.self)
                }
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    index += 2
                    continue
                }
                index += 1
            }
            return nil
        }

        /// The text of a string body containing escapes; nil for an invalid escape.
        static func unescape(_ raw: UnsafeRawBufferPointer) -> String? {
            var scalars = String.UnicodeScalarView()
            var plain: [UInt8] = []
            var index = 0
            func flushPlain() {
                scalars.append(contentsOf: String(decoding: plain, as: UTF8.self).unicodeScalars)
                plain.removeAll(keepingCapacity: true)
            }
            while index < raw.count {
                let byte = raw[index]
                guard byte == UInt8(ascii: "\\") else {
                    plain.append(byte)
                    index += 1
                    continue
                }
                flushPlain()
                guard index + 1 < raw.count else { return nil }
                let escape = raw[index + 1]
                index += 2
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    guard let unit = hexUnit(raw, at: index) else { return nil }
                    index += 4
                    if (0xD800..<0xDC00).contains(unit), index + 1 < raw.count,
                       raw[index] == UInt8(ascii: "\\"), raw[index + 1] == UInt8(ascii: "u"),
                       let low = hexUnit(raw, at: index + 2), (0xDC00..<0xE000).contains(low) {
                        index += 6
                        let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                        scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
                    } else {
                        // A lone surrogate decodes to the replacement character, as Foundation does.
                        scalars.append(Unicode.Scalar(UInt32(unit)) ?? "\u{FFFD}")
                    }
                default:
                    return nil
                }
            }
            flushPlain()
            return String(scalars)
        }

        /// The four hex digits at `offset` as a UTF-16 code unit.
        static func hexUnit(_ raw: UnsafeRawBufferPointer, at offset: Int) -> UInt16? {
            guard offset + 4 <= raw.count else { return nil }
            var value: UInt16 = 0
            for byte in raw[offset..<(offset + 4)] {
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt16(digit)
            }
            return value
        }
    }
}
