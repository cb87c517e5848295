import ArgumentParser
import Foundation
import RuleEngine

/// `verdict bench rules`: decisions per second on a rule bundle (default: the shipped `Rules/`)
/// with generated 200-transaction histories, on one thread and on every core. Measures the fast
/// path the service uses per notification (`explain: false`) and, separately, decisions with the
/// full explanation trace.
struct RulesBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "Decide for generated customers with the shipped bundle and print decisions per second."
    )

    @Argument(help: "The bundle folder.")
    var directory = RulesCommandSupport.defaultDirectory

    @Option(help: "Decisions per run.")
    var count = 200_000

    @Option(help: "Distinct generated customers (decisions cycle through them).")
    var customers = 1_000

    @Option(help: "Transactions in each customer's history.")
    var history = 200

    func run() async throws {
        guard let bundle = RulesCommandSupport.load(directory) else { throw ExitCode.failure }
        let generator = SyntheticFacts.lumen(historyLength: history)
        let facts = try generator.make(count: customers, schema: bundle.schema)
        let limits = InMemoryLimits()
        var outcomes: [String: Int] = [:]
        for document in facts {
            let decision = bundle.decide(document, limits: limits, explain: false)
            let key = decision.rule?.id ?? decision.blockedBy.map { "blocked:\($0.id)" } ?? (decision.heldOut ? "held out" : "none")
            outcomes[key, default: 0] += 1
        }
        print("bundle \(bundle.hash); \(customers) customers with \(history) transactions each; outcomes:")
        for (key, value) in outcomes.sorted(by: { $0.value > $1.value }) { print("  \(key): \(value)") }
        let total = facts.count
        _ = try await Throughput(unit: "decisions", count: count).measure("decide") { index in
            _ = bundle.decide(facts[index % total], limits: limits, explain: false)
        }
        _ = try await Throughput(unit: "decisions", count: max(count / 10, 1)).measure("decide with explanation") { index in
            _ = bundle.decide(facts[index % total], limits: limits, explain: true)
        }
    }
}
