import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import RuleEngine
import VerdictRequests
import VerdictStorage

/// The console's Replay pages: a form to replay a candidate (a tar or zip of the bundle folder, or
/// the active bundle with one file replaced) over a period, the recent replays, and one replay —
/// its progress while it runs (the page reloads itself: no script), then its HTML report embedded
/// and its JSON report to download. Each page is one app's (``ConsoleScope``): its active bundle,
/// its replays; the replay runs as the API's does (``ReplayLauncher``, for that app).
struct ConsoleReplayPages {
    let renderer: ConsoleRenderer
    /// Wakes the worker for a queued replay.
    let signal: JobSignal
    let now: @Sendable () -> Date

    /// The replay report's own style sheet, allowed by its hash (the report is one self-contained file).
    static let reportPolicy: String = {
        let digest = Data(SHA256.hash(data: Data(HTMLPage.styleSheet.utf8))).base64EncodedString()
        return "default-src 'none'; style-src 'sha256-\(digest)'; img-src data:; frame-ancestors 'self'; base-uri 'none'; form-action 'none'"
    }()

    func register(on router: some RouterMethods<ServiceRequestContext>, access: ConsoleAccess) {
        router.get("/console/replay") { request, _ in
            try await access.page(request) { scope in try await form(scope, refusal: nil) }
        }
        router.post("/console/replay") { request, _ in
            try await access.page(request) { scope in try await launch(request, scope) }
        }
        router.get("/console/replay/{id}") { request, context in
            try await access.page(request) { scope in
                guard let record = try await replay(context, scope) else {
                    return renderer.page("replay-status", title: "No such replay", scope: scope, values: [String: String](), status: .notFound)
                }
                let view = ConsoleReplayView(record, links: scope.links)
                var headers = HTTPFields()
                headers[.contentSecurityPolicy] = ConsoleHeaders.contentSecurityPolicy + "; frame-src 'self'"
                return renderer.page(
                    "replay-status", title: "Replay", scope: scope, current: "/console/replay", values: view, headers: headers,
                    refresh: view.running ? 2 : nil)
            }
        }
        router.get("/console/replay/{id}/report") { request, context in
            try await access.page(request) { scope in
                guard let record = try await replay(context, scope), let json = record.report else { return Self.notReady }
                let report = try JSONDecoder().decode(ReplayReport.self, from: Data(json.utf8))
                var headers = ConsoleHeaders.page.merging([.contentType: "text/html; charset=utf-8"])
                headers[.contentSecurityPolicy] = Self.reportPolicy
                headers[HTTPField.Name("X-Frame-Options")!] = "SAMEORIGIN"
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: ReplayReportPage.render(report))))
            }
        }
        router.get("/console/replay/{id}/report.json") { request, context in
            try await access.page(request) { scope in
                guard let record = try await replay(context, scope), let json = record.report else { return Self.notReady }
                return Response(
                    status: .ok,
                    headers: ConsoleHeaders.page.merging([
                        .contentType: "application/json", .contentDisposition: "attachment; filename=\"replay-\(record.id).json\"",
                    ]),
                    body: .init(byteBuffer: ByteBuffer(string: json)))
            }
        }
    }

    /// Launches the form's candidate for the scope's app and goes to its page; a refused form or
    /// candidate is shown on the form, with the API's message and status.
    private func launch(_ request: Request, _ scope: ConsoleScope) async throws -> Response {
        let form = try await MultipartForm.read(request, limit: ReplayRequest.maximumBytes + 64 * 1024)
        guard scope.session.accepts(csrf: form.text("csrf")) else {
            return try await self.form(scope, refusal: .init(message: "The form expired: please send it again.", details: ""), status: .forbidden)
        }
        do {
            let launcher = ReplayLauncher(app: scope.app, signal: signal, now: now)
            let record = try await launcher.launch(try candidate(form, active: scope.app.rules.current).validated())
            return ConsoleRoutes.redirect(to: scope.links.replay(record.id))
        } catch let refusal as CandidateRefusal {
            let details = refusal.body.error.errors.map { $0.render() } + refusal.body.error.failedTests.map {
                "FAIL \($0.file):\($0.line): \($0.name)\n" + $0.failures.map { "  - \($0)" }.joined(separator: "\n")
            }
            return try await self.form(scope, refusal: .init(message: refusal.body.error.message, details: details.joined(separator: "\n\n")),
                                       status: .unprocessableContent)
        } catch {
            guard let answer = error as? ServiceError ?? (error as? RequestBodyError).map(ServiceError.init) else { throw error }
            return try await self.form(scope, refusal: .init(message: answer.message, details: ""), status: answer.status)
        }
    }

    private static var notReady: Response {
        Response(status: .notFound, headers: ConsoleHeaders.page.merging([.contentType: "text/plain; charset=utf-8"]),
                 body: .init(byteBuffer: ByteBuffer(string: "This replay has no report (yet).")))
    }

    /// The scope's app's replay the path names (another app's is not found).
    private func replay(_ context: ServiceRequestContext, _ scope: ConsoleScope) async throws -> RuleReplayRecord? {
        guard let uuid = UUID(uuidString: try context.parameters.require("id")) else { return nil }
        return try await scope.app.repository.replay(id: uuid.uuidString.lowercased())
    }

    /// The form with the app's recent replays, and what was refused when a candidate was.
    private func form(_ scope: ConsoleScope, refusal: ConsoleReplayForm.Refusal?, status: HTTPResponse.Status = .ok) async throws -> Response {
        let links = scope.links
        let view = ConsoleReplayForm(
            csrf: scope.session.csrfToken, action: links.page("/console/replay"),
            files: scope.app.rules.current?.files.map(\.name) ?? [], refusal: refusal,
            replays: try await scope.app.repository.replays(limit: 20).map { ConsoleReplayView($0, links: links) })
        return renderer.page("replay", title: "Replay", scope: scope, current: "/console/replay", values: view, status: status)
    }

    /// The candidate of the form: the uploaded archive, else the app's `active` bundle with the edited file.
    private func candidate(_ form: MultipartForm, active: RuleBundle?) throws -> ReplayRequest {
        var files: [String: String] = [:]
        if let archive = form.file("archive") {
            files = try ReplayRequest.files(
                inArchive: archive.data, format: .init(sniffing: archive.data), name: archive.filename ?? "the file")
        } else {
            guard let active else {
                throw ServiceError.unprocessable("INVALID_FILES", "no active bundle to edit: upload a tar or zip of the folder")
            }
            for file in active.files { files[file.name] = file.text }
            if let name = form.text("file"), let text = form.text("text"), !text.isEmpty {
                guard files[name] != nil else { throw ServiceError.unprocessable("INVALID_FILES", "'\(name)' is not a file of the active bundle") }
                files[name] = text.replacingOccurrences(of: "\r\n", with: "\n")
            }
        }
        func day(_ name: String) -> Int64? { form.text(name).flatMap { $0.isEmpty ? nil : RuleTime.parseTimestamp($0) } }
        return ReplayRequest(
            files: files, baseline: form.text("baseline") ?? "recorded", since: day("since"), until: day("until"),
            section: form.text("section") ?? "both", sample: form.text("sample").flatMap { Int($0) })
    }
}
