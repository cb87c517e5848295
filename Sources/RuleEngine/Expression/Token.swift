/// One lexical token of an expression, with its range.
struct Token: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        case identifier(String)
        case int(Int64)
        case string(String)
        case leftParen, rightParen, leftBracket, rightBracket, leftBrace, rightBrace
        case dot, comma, question, colon
        case bang, minus, plus, star, slash, percent
        case less, lessEqual, greater, greaterEqual, equalEqual, bangEqual
        case ampersandAmpersand, pipePipe
        case end
    }

    let kind: Kind
    let range: SourceRange

    /// How the token reads in "expected … but found …" messages.
    var display: String {
        switch kind {
        case .identifier(let name): "'\(name)'"
        case .int(let value): "'\(value)'"
        case .string: "a string"
        case .leftParen: "'('"
        case .rightParen: "')'"
        case .leftBracket: "'['"
        case .rightBracket: "']'"
        case .leftBrace: "'{'"
        case .rightBrace: "'}'"
        case .dot: "'.'"
        case .comma: "','"
        case .question: "'?'"
        case .colon: "':'"
        case .bang: "'!'"
        case .minus: "'-'"
        case .plus: "'+'"
        case .star: "'*'"
        case .slash: "'/'"
        case .percent: "'%'"
        case .less: "'<'"
        case .lessEqual: "'<='"
        case .greater: "'>'"
        case .greaterEqual: "'>='"
        case .equalEqual: "'=='"
        case .bangEqual: "'!='"
        case .ampersandAmpersand: "'&&'"
        case .pipePipe: "'||'"
        case .end: "the end of the expression"
        }
    }
}
