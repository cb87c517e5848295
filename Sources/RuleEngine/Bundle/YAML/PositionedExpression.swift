/// The text of an expression written as a YAML scalar, with what it takes to map an offset inside
/// the expression (Unicode scalars, 0-based, as the expression compiler reports them) back to a
/// file column: plain scalars start at the node's mark, quoted ones one column later, and escapes
/// (`''`, `\"`) shift everything after them.
struct PositionedExpression: Sendable {
    /// The expression text (the scalar's value).
    let text: String
    /// Where the first scalar of `text` is in the file.
    let start: BundleLocation
    /// For quoted scalars with escapes: the file column of each scalar of `text`.
    private let columns: [Int]?

    init(text: String, start: BundleLocation, columns: [Int]? = nil) {
        self.text = text
        self.start = start
        self.columns = columns
    }

    /// The file position of the expression scalar at `offset` (clamped to the text).
    func location(ofOffset offset: Int) -> BundleLocation {
        if let columns, !columns.isEmpty {
            let index = max(0, min(offset, columns.count - 1))
            let column = offset >= columns.count ? columns[index] + (offset - index) : columns[index]
            return BundleLocation(file: start.file, line: start.line, column: column)
        }
        return start.advanced(by: max(0, offset))
    }

    /// The number of file columns the expression range `lower..<upper` covers.
    func length(from lower: Int, to upper: Int) -> Int {
        let first = location(ofOffset: lower).column
        let last = location(ofOffset: max(lower, upper - 1)).column
        return max(1, last - first + 1)
    }

    /// Reads an expression from `node`, refusing the YAML pitfalls:
    /// an explicit tag (`- !segment.x`), a mapping-shaped condition (`- a ? b : c`), a multi-line
    /// scalar, and a ` #` comment that cut the condition short.
    static func read(_ node: YAMLNode, _ what: String, log: DiagnosticLog) -> PositionedExpression? {
        // Tagged nodes were reported by `ExplicitTagCheck`, which walks every file first.
        guard node.explicitTag == nil else { return nil }
        switch node.content {
        case .mapping:
            log.error(
                "\(what) was read as a YAML mapping (a ': ' or '? ' inside it)", at: node,
                help: "quote the whole condition, or avoid ': ' in it (there is no ?: operator)")
            return nil
        case .sequence:
            log.error("\(what) must be one expression, found a list", at: node)
            return nil
        case .scalar(let text, let style):
            guard !text.isEmpty else {
                log.error("\(what) is empty", at: node)
                return nil
            }
            let line = log.sourceLine(node.location.file, node.location.line)
            return positioned(text, style: style, node: node, line: line, what: what, log: log)
        }
    }

    private static func positioned(
        _ text: String, style: YAMLNode.ScalarStyle, node: YAMLNode, line: String, what: String, log: DiagnosticLog
    ) -> PositionedExpression? {
        let lineScalars = Array(line.unicodeScalars)
        let startIndex = node.location.column - 1
        let multiLineHelp = "write each condition on one line; split a long one into several `when` entries"
        switch style {
        case .literal, .folded:
            log.error("\(what) must be written on one line, not as a block scalar", at: node, help: multiLineHelp)
            return nil
        case .plain:
            let textScalars = Array(text.unicodeScalars)
            let end = startIndex + textScalars.count
            guard end <= lineScalars.count, Array(lineScalars[startIndex..<end]) == textScalars else {
                log.error("\(what) continues on the next line", at: node, help: multiLineHelp)
                return nil
            }
            let rest = String(String.UnicodeScalarView(lineScalars[end...]))
            let comment = rest.trimmingLeadingSpaces
            if comment.hasPrefix("#"), BalancedDelimiters.isUnbalanced(text) {
                let gap = rest.unicodeScalars.count - comment.unicodeScalars.count
                log.report(
                    .error, "' #' inside \(what) starts a YAML comment and cut the condition short",
                    at: node.location.advanced(by: textScalars.count + gap), length: comment.unicodeScalars.count,
                    help: "quote the whole condition: \"\(text)\(rest)\"")
                return nil
            }
            return PositionedExpression(text: text, start: node.location)
        case .singleQuoted, .doubleQuoted:
            guard let columns = quotedColumns(
                lineScalars, from: startIndex + 1, count: text.unicodeScalars.count, double: style == .doubleQuoted)
            else {
                log.error("\(what) continues on the next line", at: node, help: multiLineHelp)
                return nil
            }
            let start = node.location.advanced(by: 1)
            let simple = columns.enumerated().allSatisfy { $0.element == start.column + $0.offset }
            return PositionedExpression(text: text, start: start, columns: simple ? nil : columns)
        }
    }

    /// The file column of each value scalar of a quoted scalar whose content starts at
    /// `from` (0-based) on this line; nil when the closing quote is not on the line.
    private static func quotedColumns(_ line: [Unicode.Scalar], from: Int, count: Int, double: Bool) -> [Int]? {
        var columns: [Int] = []
        var index = from
        let quote: Unicode.Scalar = double ? "\"" : "'"
        while index < line.count {
            let scalar = line[index]
            if scalar == quote {
                if !double, index + 1 < line.count, line[index + 1] == "'" {
                    columns.append(index + 1)
                    index += 2
                    continue
                }
                return columns.count == count ? columns : nil
            }
            if double, scalar == "\\", index + 1 < line.count {
                columns.append(index + 1)
                switch line[index + 1] {
                case "x": index += 4
                case "u": index += 6
                case "U": index += 10
                default: index += 2
                }
                continue
            }
            columns.append(index + 1)
            index += 1
        }
        return nil
    }
}

/// Whether an expression's quotes and brackets are left open: the sign that a YAML comment
/// (` #`) cut it.
enum BalancedDelimiters {
    static func isUnbalanced(_ text: String) -> Bool {
        var depth = 0
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil }
                continue
            }
            switch character {
            case "'", "\"": quote = character
            case "(", "[", "{": depth += 1
            case ")", "]", "}": depth -= 1
            default: break
            }
        }
        return quote != nil || depth > 0
    }
}

extension String {
    fileprivate var trimmingLeadingSpaces: Substring { drop { $0 == " " || $0 == "\t" } }
}
