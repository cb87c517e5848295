/// Typed reading of `YAMLNode`s with positioned errors: the structure checks
/// item 2 (unknown keys with "did you mean", wrong kinds, missing keys, bad scalars). Every
/// method reports into the log and returns nil when the node is unusable.
struct NodeReader {
    let log: DiagnosticLog

    /// `node` as a mapping whose keys must be among `keys` (unknown keys are errors with a
    /// suggestion) and must include `required` (reported at the mapping).
    func mapping(_ node: YAMLNode, _ what: String, keys: [String], required: [String] = []) -> YAMLMapping? {
        guard let pairs = node.pairs else {
            log.error("\(what) must be a mapping, found \(node.kindDescription)", at: node)
            return nil
        }
        var kept: [YAMLNode.Pair] = []
        for pair in pairs {
            guard let key = pair.key.text else {
                log.error("keys of \(what) must be plain names, found \(pair.key.kindDescription)", at: pair.key)
                continue
            }
            guard keys.contains(key) else {
                let suggestion = DidYouMean.suggestion(for: key, among: keys)
                log.error(
                    "unknown key '\(key)' in \(what)", at: pair.key, suggestion: suggestion,
                    help: suggestion == nil ? "allowed keys: \(keys.joined(separator: ", "))" : nil)
                continue
            }
            kept.append(pair)
        }
        let mapping = YAMLMapping(node: node, pairs: kept)
        let missing = required.filter { key in !pairs.contains { $0.key.text == key } }
        for key in missing { log.error("\(what) needs '\(key)'", at: node) }
        return mapping
    }

    /// `node` as a mapping with free-form keys (names chosen by the author), in file order.
    func namedEntries(_ node: YAMLNode, _ what: String) -> [(name: String, key: YAMLNode, value: YAMLNode)]? {
        guard let pairs = node.pairs else {
            log.error("\(what) must be a mapping of names to values, found \(node.kindDescription)", at: node)
            return nil
        }
        var entries: [(name: String, key: YAMLNode, value: YAMLNode)] = []
        for pair in pairs {
            guard let name = pair.key.text, !name.isEmpty else {
                log.error("names in \(what) must be plain text", at: pair.key)
                continue
            }
            entries.append((name, pair.key, pair.value))
        }
        return entries
    }

    /// `node` as non-empty text.
    func text(_ node: YAMLNode, _ what: String) -> String? {
        guard node.explicitTag == nil else { return nil }  // reported by ExplicitTagCheck
        guard let text = node.text else {
            log.error("\(what) must be a text value, found \(node.kindDescription)", at: node)
            return nil
        }
        guard !text.isEmpty else {
            log.error("\(what) is empty", at: node)
            return nil
        }
        return text
    }

    /// `node` as one of `choices` (an error with a suggestion otherwise).
    func choice(_ node: YAMLNode, _ what: String, among choices: [String]) -> String? {
        guard let text = text(node, what) else { return nil }
        guard choices.contains(text) else {
            let suggestion = DidYouMean.suggestion(for: text, among: choices)
            log.error(
                "unknown \(what) '\(text)'", at: node, suggestion: suggestion,
                help: suggestion == nil ? "expected one of: \(choices.joined(separator: ", "))" : nil)
            return nil
        }
        return text
    }

    /// `node` as a decimal integer within `range`.
    func int(_ node: YAMLNode, _ what: String, in range: ClosedRange<Int> = Int.min...Int.max) -> Int? {
        guard let text = text(node, what) else { return nil }
        guard let value = Int(text) else {
            log.error("\(what) must be a whole number, found '\(text)'", at: node)
            return nil
        }
        guard range.contains(value) else {
            log.error("\(what) must be between \(range.lowerBound) and \(range.upperBound), found \(value)", at: node)
            return nil
        }
        return value
    }

    /// `node` as `true` or `false` (YAML 1.1 spellings such as `yes` are refused).
    func bool(_ node: YAMLNode, _ what: String) -> Bool? {
        guard let text = text(node, what) else { return nil }
        switch text {
        case "true": return true
        case "false": return false
        default:
            log.error("\(what) must be true or false, found '\(text)'", at: node)
            return nil
        }
    }

    /// `node` as a list.
    func list(_ node: YAMLNode, _ what: String) -> [YAMLNode]? {
        guard let items = node.items else {
            log.error("\(what) must be a list, found \(node.kindDescription)", at: node)
            return nil
        }
        return items
    }

    /// `node` as a list of non-empty texts.
    func texts(_ node: YAMLNode, _ what: String) -> [(String, YAMLNode)]? {
        guard let items = list(node, what) else { return nil }
        return items.compactMap { item in text(item, "an entry of \(what)").map { ($0, item) } }
    }

    /// `node` as an ISO 8601 instant (`2026-12-01`, `2026-12-01T00:00:00Z`, with an offset or
    /// fractional seconds), in milliseconds since 1970.
    func timestamp(_ node: YAMLNode, _ what: String) -> Int64? {
        guard let text = text(node, what) else { return nil }
        guard let value = RuleTime.parseTimestamp(text) else {
            log.error(
                "\(what) must be a date or an instant, found '\(text)'", at: node,
                help: "write 2026-12-01 or 2026-12-01T00:00:00Z")
            return nil
        }
        return value
    }

    /// The longest duration a rule file may name: 100 years (of 365 days). Longer ones would only
    /// push times past what dates and counters can hold.
    static let maximumDuration: Int64 = 36_500 * RuleTime.day

    /// `180d`, `36h`, `days(180)` or `hours(36)`, positive and at most ``maximumDuration``.
    func duration(_ node: YAMLNode, _ what: String) -> Int64? {
        guard let text = text(node, what) else { return nil }
        var millis = RuleTime.parseDuration(text)
        for (function, unit) in [("days", RuleTime.day), ("hours", RuleTime.hour)]
        where millis == nil && text.hasPrefix(function + "(") && text.hasSuffix(")") {
            guard let count = Int64(text.dropFirst(function.count + 1).dropLast()) else { continue }
            let (product, overflow) = count.multipliedReportingOverflow(by: unit)
            millis = overflow ? .max : product
        }
        guard let millis, millis > 0 else {
            log.error("\(what) must be a positive duration, found '\(text)'", at: node, help: "write 180d, 36h or days(180)")
            return nil
        }
        guard millis <= Self.maximumDuration else {
            log.error("\(what) must be at most 100 years (36500d), found '\(text)'", at: node)
            return nil
        }
        return millis
    }
}
