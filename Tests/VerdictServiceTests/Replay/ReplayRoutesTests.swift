import AppStoreServer
import Foundation
import HTTPTypes
import Testing
import VerdictService

/// `POST /v1/rules/replay` and its resources in-process: what is refused (and how), what is
/// queued, and the resource's life (state, cancel, report not ready).
@Suite struct ReplayRoutesTests {
    @Test func malformedUploadsAreRefusedWithTheirCodes() async throws {
        try await RouterHarness.with { harness in
            let shipped = try ReplayCandidates.shipped()
            let cases: [(String, Data, Int, String)] = [
                ("application/json", Data(#"{"baseline":"recorded"}"#.utf8), 400, "MISSING_FIELD"),
                ("application/json", Data(#"{"files":[]}"#.utf8), 400, "INVALID_FIELD"),
                ("application/json", Data(#"{"files":{"a.rules.yaml":1}}"#.utf8), 400, "INVALID_FIELD"),
                ("application/json", Data(#"{"files":{},"extra":1}"#.utf8), 400, "UNKNOWN_FIELD"),
                ("application/json", try ReplayCandidates.body(["notes.txt": "x"]), 422, "INVALID_FILES"),
                ("application/json", try ReplayCandidates.body(["catalog.yaml": "currencies: [USD]"]), 422, "INVALID_FILES"),
                ("application/json", try ReplayCandidates.body(shipped, ["section": "all"]), 422, "INVALID_FIELD"),
                ("application/json", try ReplayCandidates.body(shipped, ["baseline": "yesterday"]), 422, "INVALID_FIELD"),
                ("application/json", try ReplayCandidates.body(shipped, ["sample": 0]), 422, "INVALID_FIELD"),
                ("application/json", try ReplayCandidates.body(shipped, ["since": "2026-12-01T00:00:00Z", "until": "2026-11-01T00:00:00Z"]), 422, "INVALID_FIELD"),
                ("application/zip", Data("PK".utf8), 400, "MALFORMED_ARCHIVE"),
                ("application/gzip", Data([0x1f, 0x8b]), 415, "UNSUPPORTED_MEDIA_TYPE"),
                ("application/x-tar", Data(repeating: 7, count: 1024), 400, "MALFORMED_ARCHIVE"),
                ("application/json", Data(repeating: 32, count: 1024 * 1024 + 1), 413, "PAYLOAD_TOO_LARGE"),
            ]
            for (contentType, body, status, code) in cases {
                let answer = try await harness.send(.post, "/v1/rules/replay", body: body, contentType: contentType)
                #expect(answer.status == status, "\(code): \(String(decoding: answer.body.prefix(300), as: UTF8.self))")
                #expect(answer.body.jsonObject[path: "error.code"]?.stringValue == code)
            }
        }
    }

    @Test func aCandidateThatDoesNotCheckIsRefusedWithPositionedErrors() async throws {
        try await RouterHarness.with { harness in
            let files = try ReplayCandidates.shipped(
                editing: "retention.rules.yaml", "if: subscription.isInBillingRetry", "if: subscription.isInBillingRetyr")
            let answer = try await harness.send(.post, "/v1/rules/replay", body: try ReplayCandidates.body(files))
            #expect(answer.status == 422)
            let error = answer.body.jsonObject[path: "error"]?.objectValue ?? [:]
            #expect(error["code"]?.stringValue == "CANDIDATE_REFUSED")
            let first = try #require(error["errors"]?.arrayValue?.first?.objectValue)
            #expect(first["file"]?.stringValue == "candidate/retention.rules.yaml")
            #expect(first["line"]?.integerValue == 75)
            #expect(first["column"]?.integerValue == 24)
            #expect(first["suggestion"]?.stringValue?.contains("isInBillingRetry") == true)
        }
    }

    @Test func aCandidateWhoseOwnTestFailsIsRefusedWithTheTest() async throws {
        try await RouterHarness.with { harness in
            let files = try ReplayCandidates.shipped(
                editing: "retention.rules.yaml", "salt: lumen-monthly-depth-2026", "salt: lumen-monthly-depth-2027")
            let answer = try await harness.send(.post, "/v1/rules/replay", body: try ReplayCandidates.body(files))
            #expect(answer.status == 422)
            let error = answer.body.jsonObject[path: "error"]?.objectValue ?? [:]
            #expect(error["code"]?.stringValue == "CANDIDATE_TESTS_FAILED")
            let failed = try #require(error["failedTests"]?.arrayValue?.first?.objectValue)
            #expect(failed["file"]?.stringValue == "candidate/retention.tests.yaml")
            #expect((failed["line"]?.integerValue ?? 0) > 0)
            #expect(failed["failures"]?.arrayValue?.first?.stringValue?.contains("expected offer lumen-monthly-3for1") == true)
        }
    }

    @Test func aGoodCandidateIsQueuedAndCanBeCancelled() async throws {
        try await RouterHarness.with { harness in
            let answer = try await harness.send(
                .post, "/v1/rules/replay", body: try ReplayCandidates.body(try ReplayCandidates.shipped(), ["section": "offers", "sample": 10]))
            #expect(answer.status == 202)
            let id = try #require(answer.body.jsonObject["id"]?.stringValue)
            #expect(answer.headers[.location] == "/v1/rules/replay/\(id)")
            #expect(answer.body.jsonObject["state"]?.stringValue == "queued")
            #expect(answer.body.jsonObject["candidate"]?.stringValue?.hasPrefix("sha256:") == true)
            // No worker runs in-process: the replay stays queued.
            let report = try await harness.send(.get, "/v1/rules/replay/\(id)/report.html")
            #expect(report.status == 409 && report.body.jsonObject[path: "error.code"]?.stringValue == "REPORT_NOT_READY")
            let listed = try await harness.send(.get, "/v1/rules/replay?limit=5")
            #expect(listed.body.jsonObject["replays"]?.arrayValue?.first?.objectValue?["id"]?.stringValue == id)
            let cancelled = try await harness.send(.delete, "/v1/rules/replay/\(id)")
            #expect(cancelled.status == 200 && cancelled.body.jsonObject["state"]?.stringValue == "cancelled")
            let again = try await harness.send(.delete, "/v1/rules/replay/\(id)")
            #expect(again.status == 409 && again.body.jsonObject[path: "error.code"]?.stringValue == "REPLAY_FINISHED")
            #expect(try await harness.send(.get, "/v1/rules/replay/\(UUID().uuidString)").status == 404)
            #expect(try await harness.send(.get, "/v1/rules/replay/not-a-uuid").status == 400)
            #expect(try await harness.send(.get, "/v1/rules/replay/\(id)", token: nil).status == 401)
        }
    }

    /// The standard output of a command (`tar`, Python's `zipfile`): archives made by other tools.
    static func output(of arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ServiceTestError("\(arguments.joined(separator: " ")) failed") }
        return data
    }

    /// A zip of the shipped bundle folder (under `Rules/`), deflated, as Python's `zipfile` writes it.
    static func zippedRules() throws -> Data {
        try output(of: ["python3", "-c", """
            import io, os, sys, zipfile
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
                for name in sorted(os.listdir(sys.argv[1])):
                    path = os.path.join(sys.argv[1], name)
                    archive.write(path, "Rules/" + name + ("/" if os.path.isdir(path) else ""))
            sys.stdout.buffer.write(buffer.getvalue())
            """, ServiceHarness.rulesDirectory])
    }

    @Test func aTarOrZipOfTheFolderIsReadWithItsSettingsInTheQuery() async throws {
        try await RouterHarness.with { harness in
            let tar = try Self.output(of: ["tar", "-cf", "-", "-C", ServiceHarness.rulesDirectory, "."])
            for (archive, contentType) in [(tar, "application/x-tar"), (try Self.zippedRules(), "application/zip")] {
                let answer = try await harness.send(
                    .post, "/v1/rules/replay?section=refunds&baseline=active&since=2026-01-01T00:00:00Z", body: archive,
                    contentType: contentType)
                #expect(answer.status == 202, "\(contentType): \(String(decoding: answer.body.prefix(400), as: UTF8.self))")
                #expect(answer.body.jsonObject["section"]?.stringValue == "refunds")
                #expect(answer.body.jsonObject["baseline"]?.stringValue == "active")
                #expect(answer.body.jsonObject["since"]?.integerValue == 1_767_225_600_000)
                #expect(answer.body.jsonObject["candidate"]?.stringValue == harness.service.apps.first.rules.current?.hash)
            }
        }
    }
}
