import ArgumentParser
import Foundation
import RuleEngine

/// `verdict rules …`: check, test and explain the rule bundle product managers edit, and print
/// the fact reference. The same checks run when the service loads or reloads the bundle.
struct RulesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "Check, test and explain a rule bundle (Rules/), and print the fact reference.",
        subcommands: [
            RulesCheckCommand.self, RulesTestCommand.self, RulesExplainCommand.self, RulesReplayCommand.self, RulesFactsCommand.self,
        ]
    )
}

/// Shared steps of the `rules` subcommands: loading a bundle and printing its diagnostics.
enum RulesCommandSupport {
    /// The bundle folder used when none is given.
    static let defaultDirectory = "Rules"

    /// Checks the bundle in `directory`; prints every diagnostic (errors and warnings, positioned
    /// with file:line:col, the source line, a caret and any did-you-mean) — to standard output
    /// when they are the command's result (`rules check`), else to standard error — and returns
    /// the bundle, or nil when it has errors. `images` false skips reading the image files of
    /// `messages.yaml` (a replay's candidate: decisions do not read them).
    static func load(_ directory: String, diagnosticsToStandardOutput: Bool = false, images: Bool = true) -> RuleBundle? {
        func emit(_ text: String) {
            if diagnosticsToStandardOutput { print(text) } else { printError(text) }
        }
        let files: [BundleSourceFile]
        do {
            files = try RuleBundleFiles.read(directory: directory)
        } catch {
            emit(error.diagnostic.render())
            return nil
        }
        let result = images ? RuleBundleChecker.check(files, directory: directory) : RuleBundleChecker.check(files)
        for diagnostic in result.diagnostics { emit(diagnostic.render() + "\n") }
        return result.bundle
    }

    /// Checks the bundle in `directory` (diagnostics to standard error) and runs its tests,
    /// printing each failure: the bundle, or nil when it does not check clean or a test fails.
    static func loadTested(_ directory: String, images: Bool = true) -> RuleBundle? {
        guard let bundle = load(directory, images: images) else { return nil }
        let report = RuleTestRunner.run(bundle: bundle, requireCoverage: false)
        guard report.succeeded else {
            printError(report.render())
            return nil
        }
        return bundle
    }

    /// Writes `text` and a newline to standard error.
    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

/// `verdict rules check [DIR]`: exit 0 when the bundle checks clean (warnings are printed),
/// otherwise print the positioned errors and exit 1.
struct RulesCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a rule bundle: structure, expressions, catalog, Apple's rules, lints and test files."
    )

    @Argument(help: "The bundle folder.")
    var directory = RulesCommandSupport.defaultDirectory

    func run() throws {
        guard let bundle = RulesCommandSupport.load(directory, diagnosticsToStandardOutput: true) else {
            let errors = "the bundle does not check clean"
            print("\(directory): \(errors)")
            throw ExitCode.failure
        }
        let rules = bundle.ruleReferences.count
        let tests = bundle.testSuites.reduce(0) { $0 + $1.cases.count }
        let warnings = bundle.warnings.count { $0.severity == .warning }
        print("\(directory): ok — \(rules) rules and vetoes, \(tests) tests, \(warnings) warnings, bundle \(bundle.hash)")
    }
}

/// `verdict rules test [DIR] [--require-coverage]`: runs the bundle's `*.tests.yaml`, prints each
/// failure with its explanation and the coverage, and ends with `N passed, N failed`.
struct RulesTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run a rule bundle's tests; the last line is 'N passed, N failed'."
    )

    @Argument(help: "The bundle folder.")
    var directory = RulesCommandSupport.defaultDirectory

    @Flag(help: "Fail when a rule or veto is not hit by any test.")
    var requireCoverage = false

    func run() throws {
        guard let bundle = RulesCommandSupport.load(directory) else {
            print("0 passed, 0 failed (the bundle does not check clean)")
            throw ExitCode.failure
        }
        let report = RuleTestRunner.run(bundle: bundle, requireCoverage: requireCoverage)
        let total = bundle.ruleReferences.count
        let covered = total - report.uncovered.count
        print("coverage: \(covered)/\(total) rules and vetoes hit by a test")
        print(report.render())
        if !report.succeeded { throw ExitCode.failure }
    }
}

/// `verdict rules facts [--json-schema]`: prints the Markdown fact reference generated from the
/// fact schema, or the JSON Schema of a facts document (the fact part of
/// `Rules/schema/tests.schema.json` is derived from it).
struct RulesFactsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "facts",
        abstract: "Print the fact reference (Markdown): every fact a rule can read, with its type."
    )

    @Flag(help: "Print the JSON Schema of a facts document instead.")
    var jsonSchema = false

    func run() throws {
        let text = jsonSchema ? FactSchema.standard.jsonSchema() : FactSchema.standard.markdownReference()
        print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
    }
}
