/// Splits expression text into tokens. Positions are Unicode-scalar offsets.
///
/// Rejects, with a positioned message, what Rules-CEL leaves out of CEL or what PMs commonly
/// type by mistake: decimal numbers (money is `money('9.99 USD')`), a single `=`, `&` or `|`,
/// unterminated strings, and characters that are not part of the language.
struct Lexer {
    private let scalars: [Unicode.Scalar]
    private var position = 0

    init(_ source: String) {
        self.scalars = Array(source.unicodeScalars)
    }

    /// All tokens, ending with `.end`.
    static func tokenize(_ source: String) throws(ExpressionDiagnostic) -> [Token] {
        var lexer = Lexer(source)
        var tokens: [Token] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    private static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    mutating func next() throws(ExpressionDiagnostic) -> Token {
        while let scalar = peek(), scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" { position += 1 }
        let start = position
        guard let scalar = peek() else { return Token(kind: .end, range: SourceRange(start: start, end: start)) }
        if Self.isIdentifierStart(scalar) {
            while let next = peek(), Self.isIdentifierStart(next) || Self.isDigit(next) { position += 1 }
            return token(.identifier(String(String.UnicodeScalarView(scalars[start..<position]))), from: start)
        }
        if Self.isDigit(scalar) { return try number(from: start) }
        if scalar == "'" || scalar == "\"" { return try string(quote: scalar, from: start) }
        position += 1
        let kind: Token.Kind
        switch scalar {
        case "(": kind = .leftParen
        case ")": kind = .rightParen
        case "[": kind = .leftBracket
        case "]": kind = .rightBracket
        case "{": kind = .leftBrace
        case "}": kind = .rightBrace
        case ".": kind = .dot
        case ",": kind = .comma
        case "?": kind = .question
        case ":": kind = .colon
        case "+": kind = .plus
        case "-": kind = .minus
        case "*": kind = .star
        case "/": kind = .slash
        case "%": kind = .percent
        case "!": kind = take("=") ? .bangEqual : .bang
        case "<": kind = take("=") ? .lessEqual : .less
        case ">": kind = take("=") ? .greaterEqual : .greater
        case "=":
            guard take("=") else { throw diagnostic("use '==' to compare ('=' is not an operator)", from: start) }
            kind = .equalEqual
        case "&":
            guard take("&") else { throw diagnostic("use '&&' for 'and'", from: start) }
            kind = .ampersandAmpersand
        case "|":
            guard take("|") else { throw diagnostic("use '||' for 'or'", from: start) }
            kind = .pipePipe
        case "#":
            throw diagnostic("'#' starts a comment in YAML; expressions have no comments", from: start)
        default:
            throw diagnostic("unexpected character '\(scalar)'", from: start)
        }
        return token(kind, from: start)
    }

    private mutating func take(_ expected: Unicode.Scalar) -> Bool {
        guard peek() == expected else { return false }
        position += 1
        return true
    }

    private func token(_ kind: Token.Kind, from start: Int) -> Token {
        Token(kind: kind, range: SourceRange(start: start, end: position))
    }

    private func diagnostic(_ message: String, from start: Int) -> ExpressionDiagnostic {
        ExpressionDiagnostic(message, at: SourceRange(start: start, end: max(position, start + 1)))
    }

    private mutating func number(from start: Int) throws(ExpressionDiagnostic) -> Token {
        while let next = peek(), Self.isDigit(next) { position += 1 }
        if peek() == ".", let after = peek(1), Self.isDigit(after) {
            position += 1
            while let next = peek(), Self.isDigit(next) { position += 1 }
            throw diagnostic("decimal numbers are not supported; write money('9.99 USD') for amounts", from: start)
        }
        if let next = peek(), Self.isIdentifierStart(next) {
            while let more = peek(), Self.isIdentifierStart(more) || Self.isDigit(more) { position += 1 }
            let text = String(String.UnicodeScalarView(scalars[start..<position]))
            let hint = RuleTime.parseDuration(text) != nil ? "; write duration('\(text)') or days(…)/hours(…)" : ""
            throw diagnostic("'\(text)' is not a number\(hint)", from: start)
        }
        let text = String(String.UnicodeScalarView(scalars[start..<position]))
        guard let value = Int64(text) else { throw diagnostic("integer \(text) is too large", from: start) }
        return token(.int(value), from: start)
    }

    private mutating func string(quote: Unicode.Scalar, from start: Int) throws(ExpressionDiagnostic) -> Token {
        position += 1
        var text = String.UnicodeScalarView()
        while let scalar = peek() {
            position += 1
            if scalar == quote { return token(.string(String(text)), from: start) }
            if scalar == "\\" {
                guard let escaped = peek() else { break }
                position += 1
                switch escaped {
                case "\\", "'", "\"": text.append(escaped)
                case "n": text.append("\n")
                case "t": text.append("\t")
                default:
                    throw ExpressionDiagnostic("unknown escape '\\\(escaped)'", at: SourceRange(start: position - 2, end: position))
                }
            } else {
                text.append(scalar)
            }
        }
        throw diagnostic("unterminated string (missing \(quote))", from: start)
    }
}
