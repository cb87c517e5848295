import ArgumentParser
import Foundation
import RuleEngine

/// `verdict rules explain [DIR] --facts FILE.json [--json] [--now ISO8601]`: evaluates one facts
/// document (the JSON shape the service builds for a notification) against the bundle and prints
/// the decision with its explanation, as text or as the JSON decision record. Limits are
/// explained as if nothing had been granted yet (the service supplies real counts).
struct RulesExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Decide for a facts document and print the decision with its explanation."
    )

    @Argument(help: "The bundle folder.")
    var directory = RulesCommandSupport.defaultDirectory

    @Option(name: .long, help: "A facts document (JSON), e.g. Rules/examples/auto-renew-disabled.json.")
    var facts: String

    @Flag(help: "Print the decision record as JSON instead of text.")
    var json = false

    @Option(help: "The decision instant (ISO 8601); default: the facts' event.signedDate.")
    var now: String?

    func run() throws {
        var instant: Int64?
        if let now {
            guard let parsed = RuleTime.parseTimestamp(now) else {
                throw ValidationError("--now must be an ISO 8601 timestamp such as 2026-12-15T12:00:00Z, found '\(now)'")
            }
            instant = parsed
        }
        guard let bundle = RulesCommandSupport.load(directory) else { throw ExitCode.failure }
        guard let data = FileManager.default.contents(atPath: facts) else {
            RulesCommandSupport.printError("error: cannot read \(facts)")
            throw ExitCode.failure
        }
        let document: Facts
        do {
            document = try Facts(json: data, schema: bundle.schema)
        } catch {
            RulesCommandSupport.printError("\(facts): error: \(error.description)")
            throw ExitCode.failure
        }
        let decision = bundle.decide(document, now: instant)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(decision), as: UTF8.self))
        } else {
            print(decision.renderText())
        }
    }
}
