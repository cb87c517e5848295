@testable import RuleEngine
import Testing

@Suite("Expression parser")
struct ParserTests {
    /// An s-expression of the tree, to assert shape and precedence.
    static func shape(_ syntax: Syntax) -> String {
        switch syntax.kind {
        case .int(let value): return String(value)
        case .string(let value): return "'\(value)'"
        case .bool(let value): return String(value)
        case .identifier(let name): return name
        case .select(let base, let name, _): return "\(shape(base)).\(name)"
        case .index(let base, let key): return "\(shape(base))[\(shape(key))]"
        case .call(let name, _, let target, let arguments):
            let prefix = target.map { shape($0) + "." } ?? ""
            return prefix + name + "(" + arguments.map(shape).joined(separator: ", ") + ")"
        case .list(let items): return "[" + items.map(shape).joined(separator: ", ") + "]"
        case .unary(.not, let operand): return "(! \(shape(operand)))"
        case .unary(.negate, let operand): return "(- \(shape(operand)))"
        case .binary(let op, let left, let right): return "(\(op.rawValue) \(shape(left)) \(shape(right)))"
        }
    }

    static func parse(_ source: String) throws -> String { shape(try Parser.parse(source)) }

    /// The message and the covered text of the syntax error in `source`.
    static func error(_ source: String) -> (String, String)? {
        do {
            _ = try Parser.parse(source)
            return nil
        } catch {
            return (error.message, error.range.text(in: source))
        }
    }

    @Test("precedence follows CEL", arguments: [
        ("a || b && c", "(|| a (&& b c))"),
        ("a && b || c", "(|| (&& a b) c)"),
        ("!a && b", "(&& (! a) b)"),
        ("a + b * c == d", "(== (+ a (* b c)) d)"),
        ("a - b - c", "(- (- a b) c)"),
        ("x in [A, B] && y", "(&& (in x [A, B]) y)"),
        ("now - days(90) < r.date", "(< (- now days(90)) r.date)"),
        ("-5 + 2", "(+ (- 5) 2)"),
        ("(a || b) && c", "(&& (|| a b) c)"),
    ])
    func precedence(source: String, expected: String) throws {
        #expect(try Self.parse(source) == expected)
    }

    @Test("member access, indexing, calls and macros")
    func members() throws {
        #expect(try Self.parse("constants.table[subscription.currency]") == "constants.table[subscription.currency]")
        #expect(try Self.parse("customer.refunds.filter(r, r.date > now).size()") == "customer.refunds.filter(r, (> r.date now)).size()")
        #expect(try Self.parse("has(usage.consumptionPercentage)") == "has(usage.consumptionPercentage)")
        #expect(try Self.parse("s.startsWith(\"a\\'b\")") == "s.startsWith('a'b')")
        #expect(try Self.parse("[1, 2, ]") == "[1, 2]")
        #expect(try Self.parse("[]") == "[]")
    }

    @Test("ranges cover exactly the node's text, counted in Unicode scalars")
    func ranges() throws {
        let source = "'é€' == x.y && f(a)"
        let root = try Parser.parse(source)
        guard case .binary(.and, let left, let right) = root.kind, case .binary(.equal, let string, let select) = left.kind else {
            Issue.record("unexpected shape")
            return
        }
        #expect(string.range == SourceRange(start: 0, end: 4))
        #expect(select.range.text(in: source) == "x.y")
        #expect(right.range.text(in: source) == "f(a)")
        #expect(root.range == SourceRange(start: 0, end: source.unicodeScalars.count))
    }

    @Test("syntax errors name the offending text", arguments: [
        ("a = b", "use '==' to compare ('=' is not an operator)", "="),
        ("a & b", "use '&&' for 'and'", "&"),
        ("a | b", "use '||' for 'or'", "|"),
        ("price > 9.99", "decimal numbers are not supported; write money('9.99 USD') for amounts", "9.99"),
        ("tenure > 400d", "'400d' is not a number; write duration('400d') or days(…)/hours(…)", "400d"),
        ("x == 'abc", "unterminated string (missing ')", "'abc"),
        ("a > 1 ? b : c", "the conditional operator '?:' is not supported; split the condition into rules", "?"),
        ("a / 2", "the '/' operator is not supported", "/"),
        ("f(a, b", "expected ',' or ')' to close '(' at 1, found the end of the expression", ""),
        ("a == ", "expected a value, found the end of the expression", ""),
        ("a b", "unexpected 'b' after a complete expression", "b"),
        ("a < b < c", "comparisons do not chain; join them with '&&'", "<"),
        ("x == null", "null is not supported; test presence with has(…)", "null"),
        ("{'a': 1}", "map literals are not supported; declare a table under constants", "{"),
        ("a.1", "expected a field or function name after '.', found '1'", "1"),
        ("x == 'a' # note", "'#' starts a comment in YAML; expressions have no comments", "#"),
        ("a @ b", "unexpected character '@'", "@"),
        ("99999999999999999999 > 1", "integer 99999999999999999999 is too large", "99999999999999999999"),
        ("'a\\qb'", "unknown escape '\\q'", "\\q"),
    ])
    func errors(source: String, message: String, text: String) {
        let found = Self.error(source)
        #expect(found?.0 == message)
        #expect(found?.1 == text)
    }

    @Test("error positions are scalar offsets past non-ASCII text")
    func errorPositionAfterUnicode() throws {
        do {
            _ = try Parser.parse("'😀é' = x")
            Issue.record("expected an error")
        } catch {
            #expect(error.range == SourceRange(start: 5, end: 6))
        }
    }
}
