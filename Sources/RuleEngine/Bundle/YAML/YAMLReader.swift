import Yams

/// Reads one bundle file into a `YAMLNode` tree with Yams 6 (`compose` with the basic resolver),
/// turning Yams' syntax errors (scanner, parser, composer, duplicate keys) into positioned
/// diagnostics.
enum YAMLReader {
    /// The file's single document, nil for an empty file; or the syntax error as a diagnostic.
    static func read(_ file: BundleSourceFile) -> Result<YAMLNode?, RuleDiagnostic> {
        do {
            guard let node = try Yams.compose(yaml: file.text, .basic) else { return .success(nil) }
            return .success(convert(node, file: file.path))
        } catch let error as YamlError {
            return .failure(diagnostic(for: error, in: file))
        } catch {
            return .failure(located(file, line: 1, column: 1, message: "cannot read YAML: \(error)"))
        }
    }

    private static func convert(_ node: Node, file: String) -> YAMLNode {
        func location(_ mark: Mark?) -> BundleLocation {
            BundleLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1)
        }
        // Yams resolves implicit tags lazily (to str/seq/map under the basic resolver), so what
        // is left besides those is a tag written in the file.
        func tag(_ tag: Tag) -> String? {
            let raw = tag.rawValue
            let implicit: Set<String> = ["", Tag.Name.str.rawValue, Tag.Name.seq.rawValue, Tag.Name.map.rawValue]
            return implicit.contains(raw) ? nil : raw
        }
        switch node {
        case .scalar(let scalar):
            return YAMLNode(
                .scalar(scalar.string, style(scalar.style)), at: location(scalar.mark), explicitTag: tag(scalar.tag))
        case .mapping(let mapping):
            let pairs = mapping.map { YAMLNode.Pair(key: convert($0.key, file: file), value: convert($0.value, file: file)) }
            return YAMLNode(.mapping(pairs), at: location(mapping.mark), explicitTag: tag(mapping.tag))
        case .sequence(let sequence):
            let items = sequence.map { convert($0, file: file) }
            return YAMLNode(.sequence(items), at: location(sequence.mark), explicitTag: tag(sequence.tag))
        case .alias(let alias):
            return YAMLNode(.scalar("", .plain), at: location(alias.mark))
        }
    }

    private static func style(_ style: Node.Scalar.Style) -> YAMLNode.ScalarStyle {
        switch style {
        case .singleQuoted: .singleQuoted
        case .doubleQuoted: .doubleQuoted
        case .literal: .literal
        case .folded: .folded
        case .any, .plain: .plain
        }
    }

    private static func diagnostic(for error: YamlError, in file: BundleSourceFile) -> RuleDiagnostic {
        switch error {
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            var message = "YAML syntax: \(problem)"
            if let context { message += " (\(context.text) at line \(context.mark.line), column \(context.mark.column))" }
            return located(file, line: mark.line, column: mark.column, message: message)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            return located(
                file, line: context.mark.line, column: context.mark.column,
                message: "duplicate key \(keys) in a mapping; each key may appear once")
        case .reader(let problem, let offset, _, _):
            let (line, column) = position(ofUTF8Offset: offset ?? 0, in: file.text)
            return located(file, line: line, column: column, message: "cannot read the file: \(problem)")
        default:
            return located(file, line: 1, column: 1, message: "cannot read YAML: \(error)")
        }
    }

    private static func position(ofUTF8Offset offset: Int, in text: String) -> (Int, Int) {
        var line = 1
        var column = 1
        for (index, scalar) in text.unicodeScalars.enumerated() {
            if index >= offset { break }
            if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        return (line, column)
    }

    private static func located(_ file: BundleSourceFile, line: Int, column: Int, message: String) -> RuleDiagnostic {
        RuleDiagnostic(
            .error, at: BundleLocation(file: file.path, line: line, column: column), message: message,
            sourceLine: file.line(line))
    }
}
