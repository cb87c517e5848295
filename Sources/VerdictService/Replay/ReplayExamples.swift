import RuleEngine

/// Each transition with its example customers and their explanations under both bundles.
struct ReplayExamples {
    let report: ReplayReport

    func render() -> String {
        let withExamples = report.transitions.enumerated().filter { !$0.element.examples.isEmpty }
        guard !withExamples.isEmpty else { return "" }
        var html = "<section id=\"examples\"><h2>Examples</h2>"
            + "<p class=\"muted\">A few customers per transition, each with the decision explained under both bundles.</p>"
        for (index, transition) in withExamples {
            let from = ReplayReport.verdictText(transition.from, transition.fromReason)
            let to = ReplayReport.verdictText(transition.to, transition.toReason)
            html += "<h3 id=\"transition-\(index)\">\(transition.section.rawValue): \(ReplayReportPage.e(from)) → "
                + "\(ReplayReportPage.e(to)) (\(ReplayReportPage.number(transition.count, "/transitions/\(index)/count")))</h3>"
            for example in transition.examples {
                let who = "originalTransactionId \(example.originalTransactionId)"
                    + (example.transactionId.map { ", transactionId \($0)" } ?? "")
                html += "<details id=\"decision-\(ReplayReportPage.e(example.decisionId))\"><summary>\(ReplayReportPage.e(who)) · "
                    + "decided \(ReplayReportPage.e(example.decidedAt)) · decision <code>\(ReplayReportPage.e(example.decisionId))</code>"
                    + "</summary><h4>Baseline\(example.baselineRule.map { " — rule \(ReplayReportPage.e($0))" } ?? "")</h4>"
                    + "<pre>\(ReplayReportPage.e(example.baselineExplanation))</pre>"
                    + "<h4>Candidate\(example.candidateRule.map { " — rule \(ReplayReportPage.e($0))" } ?? "")</h4>"
                    + "<pre>\(ReplayReportPage.e(example.candidateExplanation))</pre></details>"
            }
        }
        return html + "</section>"
    }
}
