/// The text of top-level members of a JSON object, exactly as written: how processing gets Apple's
/// verified JSON of a nested payload back out of the stored notification content (which embeds
/// it verbatim) without encoding the decoded model again.
///
/// One pass over the bytes, no recursion and no unescaping: a member name is compared as written
/// (the content's own names are plain). Anything not framed as expected answers nil for that
/// member, and the caller falls back to encoding the model.
enum JSONMemberText {
    /// The value text of each of `names` that is a top-level member of the object `text`.
    static func values(_ names: Set<String>, in text: String) -> [String: Substring] {
        let utf8 = text.utf8
        var found: [String: Substring] = [:]
        var index = utf8.startIndex
        func byte() -> UInt8? { index < utf8.endIndex ? utf8[index] : nil }
        func skipWhitespace() {
            while let current = byte(), current == 0x20 || current == 0x09 || current == 0x0A || current == 0x0D {
                index = utf8.index(after: index)
            }
        }
        /// Moves past the string whose opening quote is at `index`; false when it does not end.
        func skipString() -> Bool {
            index = utf8.index(after: index)
            while let current = byte() {
                index = utf8.index(after: index)
                if current == UInt8(ascii: "\\") {
                    guard index < utf8.endIndex else { return false }
                    index = utf8.index(after: index)
                } else if current == UInt8(ascii: "\"") {
                    return true
                }
            }
            return false
        }
        /// Moves past the value starting at `index`; false when it is cut short.
        func skipValue() -> Bool {
            var depth = 0
            while let current = byte() {
                switch current {
                case UInt8(ascii: "\""):
                    guard skipString() else { return false }
                    if depth == 0 { return true }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { return true }  // the end of the enclosing object: a scalar ended here
                    depth -= 1
                    if depth == 0 {
                        index = utf8.index(after: index)
                        return true
                    }
                case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
                    if depth == 0 { return true }
                default: break
                }
                index = utf8.index(after: index)
            }
            return depth == 0
        }

        skipWhitespace()
        guard byte() == UInt8(ascii: "{") else { return [:] }
        index = utf8.index(after: index)
        while true {
            skipWhitespace()
            guard byte() == UInt8(ascii: "\"") else { return found }  // `}` or not an object member
            let nameStart = utf8.index(after: index)
            guard skipString() else { return found }
            let name = String(text[nameStart..<utf8.index(before: index)])
            skipWhitespace()
            guard byte() == UInt8(ascii: ":") else { return found }
            index = utf8.index(after: index)
            skipWhitespace()
            let valueStart = index
            guard skipValue() else { return found }
            if names.contains(name), found[name] == nil { found[name] = text[valueStart..<index] }
            skipWhitespace()
            guard byte() == UInt8(ascii: ",") else { return found }
            index = utf8.index(after: index)
        }
    }
}
