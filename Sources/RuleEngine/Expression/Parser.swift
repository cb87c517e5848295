/// A Pratt parser for Rules-CEL, producing ``Syntax`` with exact ranges.
///
/// Precedence, loosest first (as in CEL): `||`, `&&`, relations (`== != < <= > >= in`),
/// `+ -`, `*`, prefix `! -`, then member access, indexing and calls. Relations do not chain
/// (`a < b < c` is an error), which CEL's grammar allows but its type checker rejects anyway.
/// The first syntax error stops the parse, and so does nesting deeper than ``maximumDepth``
/// (parentheses, operands, calls, member chains): the checker, emitter and tracer walk trees
/// recursively, so a bound here keeps any rule file from exhausting the stack.
struct Parser {
    /// The deepest expression tree accepted; real conditions stay far below it.
    static let maximumDepth = 100

    private let tokens: [Token]
    private var index = 0
    /// Calls of `expression` and `prefix` under way (the parser's own recursion).
    private var nesting = 0

    private init(tokens: [Token]) {
        self.tokens = tokens
    }

    /// Parses a whole expression.
    static func parse(_ source: String) throws(ExpressionDiagnostic) -> Syntax {
        var parser = Parser(tokens: try Lexer.tokenize(source))
        let syntax = try parser.expression(minimumPrecedence: 0)
        let extra = parser.current
        guard extra.kind == .end else {
            throw ExpressionDiagnostic("unexpected \(extra.display) after a complete expression", at: extra.range)
        }
        return syntax
    }

    private var current: Token { tokens[index] }

    private mutating func advance() -> Token {
        let token = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return token
    }

    private mutating func expect(_ kind: Token.Kind, _ what: String, opening: Token? = nil) throws(ExpressionDiagnostic) -> Token {
        guard current.kind == kind else {
            let note = opening.map { " to close \($0.display) at \($0.range.start)" } ?? ""
            throw ExpressionDiagnostic("expected \(what)\(note), found \(current.display)", at: current.range)
        }
        return advance()
    }

    private static func binaryOperator(_ token: Token) -> (Syntax.BinaryOperator, Int)? {
        switch token.kind {
        case .pipePipe: (.or, 1)
        case .ampersandAmpersand: (.and, 2)
        case .equalEqual: (.equal, 3)
        case .bangEqual: (.notEqual, 3)
        case .less: (.less, 3)
        case .lessEqual: (.lessEqual, 3)
        case .greater: (.greater, 3)
        case .greaterEqual: (.greaterEqual, 3)
        case .identifier("in"): (.in, 3)
        case .plus: (.add, 4)
        case .minus: (.subtract, 4)
        case .star: (.multiply, 5)
        default: nil
        }
    }

    /// `node`, or an error at it when it is nested deeper than ``maximumDepth``.
    private func bounded(_ node: Syntax) throws(ExpressionDiagnostic) -> Syntax {
        guard node.depth <= Self.maximumDepth else { throw tooDeep(at: node.range) }
        return node
    }

    private func tooDeep(at range: SourceRange) -> ExpressionDiagnostic {
        ExpressionDiagnostic(
            "the expression is nested more than \(Self.maximumDepth) levels deep; split it into named conditions", at: range)
    }

    /// Counts one level of the parser's recursion for `body`.
    private mutating func nested<T>(_ body: (inout Parser) throws(ExpressionDiagnostic) -> T) throws(ExpressionDiagnostic) -> T {
        guard nesting < Self.maximumDepth else { throw tooDeep(at: current.range) }
        nesting += 1
        defer { nesting -= 1 }
        return try body(&self)
    }

    private mutating func expression(minimumPrecedence: Int) throws(ExpressionDiagnostic) -> Syntax {
        try nested { (parser: inout Parser) throws(ExpressionDiagnostic) -> Syntax in
            try parser.binaryChain(minimumPrecedence: minimumPrecedence)
        }
    }

    private mutating func binaryChain(minimumPrecedence: Int) throws(ExpressionDiagnostic) -> Syntax {
        var left = try prefix()
        while true {
            let token = current
            switch token.kind {
            case .slash, .percent:
                throw ExpressionDiagnostic("the \(token.display) operator is not supported", at: token.range)
            case .question:
                throw ExpressionDiagnostic("the conditional operator '?:' is not supported; split the condition into rules", at: token.range)
            default: break
            }
            guard let (op, precedence) = Self.binaryOperator(token), precedence > minimumPrecedence else { return left }
            _ = advance()
            let right = try expression(minimumPrecedence: precedence)
            if precedence == 3, let (_, next) = Self.binaryOperator(current), next == 3 {
                throw ExpressionDiagnostic("comparisons do not chain; join them with '&&'", at: current.range)
            }
            left = try bounded(Syntax(.binary(op, left, right), left.range.union(right.range)))
        }
    }

    private mutating func prefix() throws(ExpressionDiagnostic) -> Syntax {
        try nested { (parser: inout Parser) throws(ExpressionDiagnostic) -> Syntax in try parser.prefixOperand() }
    }

    private mutating func prefixOperand() throws(ExpressionDiagnostic) -> Syntax {
        let token = current
        switch token.kind {
        case .bang:
            _ = advance()
            let operand = try prefix()
            return try bounded(Syntax(.unary(.not, operand), token.range.union(operand.range)))
        case .minus:
            _ = advance()
            let operand = try prefix()
            return try bounded(Syntax(.unary(.negate, operand), token.range.union(operand.range)))
        default:
            return try postfix(primary())
        }
    }

    private mutating func primary() throws(ExpressionDiagnostic) -> Syntax {
        let token = advance()
        switch token.kind {
        case .int(let value): return Syntax(.int(value), token.range)
        case .string(let value): return Syntax(.string(value), token.range)
        case .identifier("true"): return Syntax(.bool(true), token.range)
        case .identifier("false"): return Syntax(.bool(false), token.range)
        case .identifier("null"):
            throw ExpressionDiagnostic("null is not supported; test presence with has(…)", at: token.range)
        case .identifier("in"):
            throw ExpressionDiagnostic("expected a value before 'in'", at: token.range)
        case .identifier(let name):
            guard current.kind == .leftParen else { return Syntax(.identifier(name), token.range) }
            let (arguments, end) = try argumentList()
            return try bounded(Syntax(.call(name: name, nameRange: token.range, target: nil, arguments: arguments), token.range.union(end)))
        case .leftParen:
            let inner = try expression(minimumPrecedence: 0)
            let close = try expect(.rightParen, "')'", opening: token)
            return Syntax(inner.kind, token.range.union(close.range))
        case .leftBracket:
            var elements: [Syntax] = []
            if current.kind != .rightBracket {
                repeat {
                    if current.kind == .rightBracket { break }
                    elements.append(try expression(minimumPrecedence: 0))
                } while take(.comma)
            }
            let close = try expect(.rightBracket, "',' or ']'", opening: token)
            return try bounded(Syntax(.list(elements), token.range.union(close.range)))
        case .leftBrace:
            throw ExpressionDiagnostic("map literals are not supported; declare a table under constants", at: token.range)
        case .end:
            throw ExpressionDiagnostic("expected a value, found the end of the expression", at: token.range)
        default:
            throw ExpressionDiagnostic("expected a value, found \(token.display)", at: token.range)
        }
    }

    private mutating func postfix(_ base: Syntax) throws(ExpressionDiagnostic) -> Syntax {
        var result = base
        while true {
            if current.kind == .dot {
                _ = advance()
                let nameToken = current
                guard case .identifier(let name) = nameToken.kind else {
                    throw ExpressionDiagnostic("expected a field or function name after '.', found \(nameToken.display)", at: nameToken.range)
                }
                _ = advance()
                if current.kind == .leftParen {
                    let (arguments, end) = try argumentList()
                    result = try bounded(Syntax(.call(name: name, nameRange: nameToken.range, target: result, arguments: arguments),
                                                result.range.union(end)))
                } else {
                    result = try bounded(Syntax(.select(result, name: name, nameRange: nameToken.range), result.range.union(nameToken.range)))
                }
            } else if current.kind == .leftBracket {
                let open = advance()
                let key = try expression(minimumPrecedence: 0)
                let close = try expect(.rightBracket, "']'", opening: open)
                result = try bounded(Syntax(.index(result, key), result.range.union(close.range)))
            } else {
                return result
            }
        }
    }

    /// `( a, b, … )`; returns the arguments and the range of the closing parenthesis.
    private mutating func argumentList() throws(ExpressionDiagnostic) -> ([Syntax], SourceRange) {
        let open = try expect(.leftParen, "'('")
        var arguments: [Syntax] = []
        if current.kind != .rightParen {
            repeat { arguments.append(try expression(minimumPrecedence: 0)) } while take(.comma)
        }
        let close = try expect(.rightParen, "',' or ')'", opening: open)
        return (arguments, close.range)
    }

    private mutating func take(_ kind: Token.Kind) -> Bool {
        guard current.kind == kind else { return false }
        _ = advance()
        return true
    }
}
