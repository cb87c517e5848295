import Foundation
import FuzzTargets
import Testing

/// The uploads fuzz target's committed inputs, replayed: every seed in `Fuzz/uploads/corpus` (and
/// every regression in `Fuzz/uploads/crashes`, once there is one) runs to an outcome, most of them
/// to a candidate; and `POST /v1/rules/replay` answers each JSON, tar and zip input as the target
/// read it — the same refusal code, or no 400 for a candidate the target accepted.
@Suite struct UploadsFuzzCorpusTests {
    @Test func everySeedRunsAndMostAreCandidates() throws {
        let target = UploadsFuzzTarget()
        var candidates = Set<Int>(), refused = 0
        let seeds = try FuzzCorpus.inputs("uploads", "corpus")
        for (name, input) in seeds {
            switch target.run(input) {
            case .candidate(let files):
                #expect(files > 0, "\(name)")
                candidates.insert(Int(input[0]) % 4)
            case .form: break
            case .refused: refused += 1
            }
        }
        // A candidate of every kind: JSON, tar, zip and a form's archive.
        #expect(candidates == Set(0..<4) && refused >= 1 && refused <= seeds.count / 3, "\(candidates.sorted()), \(refused) refused")
        #expect(target.run(Data([1]) + Data(repeating: 0x41, count: 1024)) == .refused(code: "MALFORMED_ARCHIVE"))
        #expect(target.run(Data([3]) + Data("no parts".utf8)) == .refused(code: "MALFORMED_FORM"))
    }

    @Test func theReplayEndpointAnswersEachInputAsTheTargetReadsIt() async throws {
        let target = UploadsFuzzTarget()
        let contentTypes = ["application/json", "application/x-tar", "application/zip"]
        let inputs = try FuzzCorpus.inputs("uploads", "corpus") + FuzzCorpus.inputs("uploads", "crashes")
        try await RouterHarness.with { harness in
            for (name, input) in inputs {
                guard let mode = input.first.map({ Int($0) % 4 }), mode < 3 else { continue }
                let answer = try await harness.send(.post, "/v1/rules/replay", body: Data(input.dropFirst()), contentType: contentTypes[mode])
                let code = answer.body.jsonObject[path: "error.code"]?.stringValue
                switch target.run(input) {
                case .refused(let expected):
                    #expect(code == expected, "\(name): the service answered \(answer.status) \(code ?? "-")")
                case .candidate, .form:
                    #expect(answer.status != 400, "\(name): the service refused \(code ?? "-")")
                }
            }
        }
    }
}
