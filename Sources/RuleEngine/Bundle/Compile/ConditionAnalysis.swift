/// A light static reading of a rule's `when` list (an `&&` chain) for the load-time domain checks:
/// what values a fact path is restricted to by simple comparisons (`path == 'x'`, `path == ENUM`,
/// `path in [..]`, `path in constants.list`, `path != X`, `!(path in [..])`). Anything it does not
/// recognise leaves the path unconstrained, so the checks built on it only fire when the
/// conditions decide the question ("where the types decide them").
///
/// Reads the expression compiler's internal `Parser`/`Syntax` (same module) rather than the
/// source text, so spacing and parentheses do not matter. With ``segments``, a `segment.<name>`
/// conjunct stands for its segment's own conjuncts (for the lints; the domain checks leave
/// segments unread).
struct ConditionAnalysis {
    /// What the conditions allow for one path.
    enum Constraint: Equatable {
        /// Only these values (an intersection of every restricting condition).
        case only(Set<String>)
        /// Anything but these values.
        case excluding(Set<String>)

        /// Whether `value` may pass the conditions.
        func allows(_ value: String) -> Bool {
            switch self {
            case .only(let values): values.contains(value)
            case .excluding(let values): !values.contains(value)
            }
        }
    }

    /// Folded list constants by name (for `path in constants.name`).
    let constants: [String: RuleConstant]
    /// Segment texts by name, read in place of `segment.<name>` conjuncts; none by default.
    var segments: [String: String] = [:]

    /// The constraint the `&&`-joined `conditions` put on `path`, nil when none is recognised.
    func constraint(on path: String, in conditions: [String]) -> Constraint? {
        var only: Set<String>?
        var excluded: Set<String> = []
        for source in conditions {
            guard let syntax = try? Parser.parse(source) else { continue }
            for conjunct in conjuncts(syntax, depth: 0) {
                switch restriction(conjunct, path: path) {
                case .only(let values)?: only = only.map { $0.intersection(values) } ?? values
                case .excluding(let values)?: excluded.formUnion(values)
                case nil: break
                }
            }
        }
        if let only { return .only(only.subtracting(excluded)) }
        return excluded.isEmpty ? nil : .excluding(excluded)
    }

    /// The `&&`-joined parts of `syntax`, a known segment's parts in place of its reference (at
    /// most a few segments deep: segments may use segments).
    private func conjuncts(_ syntax: Syntax, depth: Int) -> [Syntax] {
        switch syntax.kind {
        case .binary(.and, let left, let right):
            return conjuncts(left, depth: depth) + conjuncts(right, depth: depth)
        case .select(let base, let name, _) where base.dottedPath == "segment" && depth < 8:
            guard let source = segments[name], let segment = try? Parser.parse(source) else { return [syntax] }
            return conjuncts(segment, depth: depth + 1)
        default:
            return [syntax]
        }
    }

    private func restriction(_ syntax: Syntax, path: String) -> Constraint? {
        switch syntax.kind {
        case .binary(.equal, let left, let right):
            if left.dottedPath == path, let value = Self.literal(right) { return .only([value]) }
            if right.dottedPath == path, let value = Self.literal(left) { return .only([value]) }
        case .binary(.notEqual, let left, let right):
            if left.dottedPath == path, let value = Self.literal(right) { return .excluding([value]) }
            if right.dottedPath == path, let value = Self.literal(left) { return .excluding([value]) }
        case .binary(.in, let left, let right) where left.dottedPath == path:
            return values(of: right).map { .only($0) }
        case .unary(.not, let inner):
            if case .binary(.in, let left, let right) = inner.kind, left.dottedPath == path, let values = values(of: right) {
                return .excluding(values)
            }
        default: break
        }
        return nil
    }

    private func values(of syntax: Syntax) -> Set<String>? {
        switch syntax.kind {
        case .list(let items):
            let values = items.compactMap(Self.literal)
            return values.count == items.count ? Set(values) : nil
        case .select(let base, let name, _) where base.dottedPath == "constants":
            guard case .list(let items)? = constants[name]?.value else { return nil }
            let strings = items.compactMap { item -> String? in
                if case .string(let text) = item { return text }
                return nil
            }
            return strings.count == items.count ? Set(strings) : nil
        default:
            return nil
        }
    }

    /// A string literal's text or a bare (enum case) name.
    private static func literal(_ syntax: Syntax) -> String? {
        switch syntax.kind {
        case .string(let text): text
        case .identifier(let name) where name.first?.isUppercase == true: name
        default: nil
        }
    }
}
