/// A database call's low-cardinality summary, as OpenTelemetry's `db.query.summary` describes it:
/// each statement's operation and its first table (`INSERT notifications`, `SELECT jobs`), in the
/// order first met, each once (so a retried statement or a second cap does not rename the span) —
/// never a value, a bind or a column list.
struct QuerySummary: Sendable, Equatable {
    private(set) var parts: [String] = []
    /// Whether a part was left out for length: later, shorter ones are left out too.
    private var full = false

    /// The longest summary kept (a transaction of many statements).
    static let maximumLength = 255

    var text: String? { parts.isEmpty ? nil : parts.joined(separator: " ") }

    /// Adds `sql`'s operations.
    mutating func add(_ sql: String) {
        for part in Self.operations(in: sql) where !full && !parts.contains(part) {
            let length = parts.reduce(0) { $0 + $1.count + 1 } + part.count
            guard length <= Self.maximumLength else { full = true; return }
            parts.append(part)
        }
    }

    /// `SELECT`, `INSERT`, `UPDATE` and `DELETE` operations of `sql` with their target: the table
    /// after `FROM`/`INTO` (after `UPDATE` itself), or, for a `SELECT` of a function and no
    /// table, the function (`SELECT pg_advisory_xact_lock`). Other statements (`CREATE`, `PRAGMA`,
    /// `BEGIN`) are their first word.
    static func operations(in sql: String) -> [String] {
        let tokens = tokenize(sql)
        guard let first = tokens.first?.uppercased() else { return [] }
        guard first == "WITH" || dataOperations.contains(first) else { return [first] }
        // A common table expression's name (`WITH drawn AS (…)`) is not a table.
        let expressions = Set(tokens.indices.dropLast(2).filter {
            tokens[$0 + 1].uppercased() == "AS" && tokens[$0 + 2] == "(" && identifier(at: $0, in: tokens) != nil
        }.map { tokens[$0] })
        var result: [String] = []
        for (index, token) in tokens.enumerated() {
            let word = token.uppercased()
            // `ON CONFLICT … DO UPDATE`, `FOR UPDATE`, `ON DELETE` are clauses, not operations.
            guard dataOperations.contains(word), index == 0 || !clauseWords.contains(tokens[index - 1].uppercased())
            else { continue }
            let table = target(of: word, after: index, in: tokens)
            if let table, expressions.contains(table) { continue }
            result.append(table.map { "\(word) \($0)" } ?? word)
        }
        return result.isEmpty ? [first] : result
    }

    private static let dataOperations: Set<String> = ["SELECT", "INSERT", "UPDATE", "DELETE"]
    private static let clauseWords: Set<String> = ["DO", "FOR", "ON"]

    /// The table (or function) operation `word` at `index` acts on, looked for up to the next operation.
    private static func target(of word: String, after index: Int, in tokens: [String]) -> String? {
        var position = index + 1
        if word == "UPDATE" { return identifier(at: position, in: tokens) }
        while position < tokens.count, !dataOperations.contains(tokens[position].uppercased()) {
            let keyword = tokens[position].uppercased()
            if keyword == "FROM" || keyword == "INTO" { return identifier(at: position + 1, in: tokens) }
            position += 1
        }
        // A SELECT without a table: a function call right after it.
        if word == "SELECT", let name = identifier(at: index + 1, in: tokens), index + 2 < tokens.count,
           tokens[index + 2] == "(" {
            return name
        }
        return nil
    }

    private static func identifier(at index: Int, in tokens: [String]) -> String? {
        guard index < tokens.count, let first = tokens[index].unicodeScalars.first,
              first == "_" || first.properties.isAlphabetic else { return nil }
        return tokens[index]
    }

    /// Words (letters, digits, `_`, `.`) and `(` — quoted text, `--` comments and everything else dropped.
    private static func tokenize(_ sql: String) -> [String] {
        var tokens: [String] = []
        var word = ""
        var quote: Character?
        var previous: Character?
        for character in sql {
            defer { previous = character }
            if let open = quote {
                if character == open { quote = nil }
                continue
            }
            if character == "-", previous == "-" { quote = "\n"; continue }
            if character.isLetter || character.isNumber || character == "_" || character == "." {
                word.append(character)
                continue
            }
            if !word.isEmpty { tokens.append(word); word = "" }
            if character == "'" || character == "\"" { quote = character }
            if character == "(" { tokens.append("(") }
        }
        if !word.isEmpty { tokens.append(word) }
        return tokens
    }
}
