import Foundation
import VerdictRequests

/// A replay candidate as it is uploaded, as a fuzz target: the readers `POST /v1/rules/replay` and
/// the console's replay form run on the body before any rule is checked — the JSON body, the tar
/// and zip readers (zip entries inflated by the system's zlib), the `multipart/form-data` parser —
/// then the candidate's own checks (`validated()`).
///
/// The first byte of an input picks what the rest is:
///
/// | first byte mod 4 | the rest of the input |
/// |---|---|
/// | 0 | the JSON body (`{"files": {name: text}, "baseline", "since", "until", "section", "sample"}`) |
/// | 1 | a tar of the bundle folder (`application/x-tar`) |
/// | 2 | a zip of the bundle folder (`application/zip`) |
/// | 3 | the console's form (boundary ``boundary``), and its `archive` file read as the console reads it |
///
/// Every input must end in a ``RequestBodyError`` or a candidate; a trap (or, under the address
/// sanitizer, a memory error — in zlib too) is a finding.
public struct UploadsFuzzTarget: Sendable {
    /// What one input came to (for replays and tests; the fuzzer ignores it).
    public enum Outcome: Equatable, Sendable {
        case refused(code: String)
        /// A candidate that passed its checks, with its number of bundle files.
        case candidate(files: Int)
        /// A form without an archive (the console then edits the active bundle).
        case form(parts: Int)
    }

    /// The boundary of the form inputs.
    public static let boundary = "verdict-boundary"

    public init() {}

    /// Runs one input through the reader its first byte names.
    public func run(_ input: Data) -> Outcome {
        guard let mode = input.first else { return .refused(code: "EMPTY") }
        let body = Data(input.dropFirst())
        do {
            let candidate: ReplayRequest
            switch mode % 4 {
            case 0:
                candidate = try ReplayRequest.fromJSON(body)
            case 1, 2:
                candidate = try ReplayRequest.fromArchive(body, format: mode % 4 == 1 ? .tar : .zip, setting: { _ in nil })
            default:
                let form = try MultipartForm.parse(body, boundary: Self.boundary)
                guard let archive = form.file("archive") else {
                    _ = (form.text("file"), form.text("text"), form.text("since"))
                    return .form(parts: form.parts.count)
                }
                let files = try ReplayRequest.files(inArchive: archive.data, format: .init(sniffing: archive.data), name: archive.filename)
                candidate = ReplayRequest(files: files, baseline: "recorded", since: nil, until: nil, section: "both", sample: nil)
            }
            let checked = try candidate.validated()
            _ = (checked.sections, checked.bundleFiles)
            return .candidate(files: checked.files.count)
        } catch let error as RequestBodyError {
            return .refused(code: error.code)
        } catch {
            // `fromArchive` reads its settings through a closure that may throw anything; this
            // target's never throws.
            fatalError("an upload was refused without a RequestBodyError: \(error)")
        }
    }
}
