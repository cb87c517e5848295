/// Rewrites PostgreSQL-style `$n` placeholders for SQLite (`?n`), leaving quoted text alone.
enum PlaceholderRewriter {
    static func sqlite(_ sql: String) -> String {
        var output = ""
        output.reserveCapacity(sql.utf8.count)
        var quote: Character?
        var previous: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                output.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                output.append(character)
            } else if previous == "$", character.isASCII, character.isNumber {
                output.removeLast()
                output.append("?")
                output.append(character)
            } else {
                output.append(character)
            }
            previous = character
        }
        return output
    }
}
