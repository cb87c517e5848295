import Foundation
import Hummingbird
import RuleEngine

/// A candidate bundle that may not be replayed: it does not check clean, or one of its own tests
/// fails. Answered 422 with the same positioned errors (`file:line:column`) as `verdict rules
/// check`, or the failing tests as `verdict rules test` prints them:
/// `{"error": {"code", "message", "errors": [...], "failedTests": [...]}}`.
struct CandidateRefusal: Error, HTTPResponseError {
    /// The response body.
    struct Body: Encodable {
        struct Detail: Encodable {
            var code: String
            var message: String
            var errors: [RuleDiagnostic]
            var failedTests: [FailedTest]
        }

        /// A test of the candidate that failed, where it is written and each unmet expectation.
        struct FailedTest: Encodable {
            var name: String
            var file: String
            var line: Int
            var failures: [String]
        }

        var error: Detail
    }

    let body: Body

    var status: HTTPResponse.Status { .unprocessableContent }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try JSONBody.response(body, status: status)
    }

    /// The candidate bundle when it checks clean and passes its tests; this refusal otherwise.
    static func check(_ files: [BundleSourceFile]) throws(CandidateRefusal) -> RuleBundle {
        let result = RuleBundleChecker.check(files)
        guard let bundle = result.bundle else {
            let errors = result.diagnostics.filter { $0.severity == .error }
            throw CandidateRefusal(body: Body(error: .init(
                code: "CANDIDATE_REFUSED", message: "the candidate does not check clean (\(errors.count) errors)",
                errors: errors, failedTests: [])))
        }
        let report = RuleTestRunner.run(bundle: bundle, requireCoverage: false)
        guard report.succeeded else {
            throw CandidateRefusal(body: Body(error: .init(
                code: "CANDIDATE_TESTS_FAILED", message: "\(report.failedCount) of the candidate's tests failed",
                errors: [], failedTests: report.results.filter { !$0.passed }.map {
                    Body.FailedTest(name: $0.name, file: $0.location.file, line: $0.location.line, failures: $0.failures)
                })))
        }
        return bundle
    }
}
