import FuzzTargets
import Foundation

/// `verdict-fuzz`: Verdict's libFuzzer targets, one binary.
///
/// Built by `Scripts/fuzz.sh` with `-sanitize=fuzzer` (and the address sanitizer) and
/// `-D VERDICT_FUZZING`, it is a libFuzzer program: `main` hands libFuzzer's flags to
/// `LLVMFuzzerRunDriver`, and `VERDICT_FUZZ_TARGET` names the target (`intake`, `rules`, `requests`, `uploads`). Built
/// normally, it replays inputs instead: `verdict-fuzz TARGET FILE…` runs each file once and prints
/// its outcome, so a finding can be reproduced without the fuzzing build.
enum FuzzEntry {
    /// The targets by name.
    static let targetNames = ["intake", "rules", "requests", "uploads"]

    /// One input through the target called `name`, with its outcome described.
    static func runner(_ name: String) -> @Sendable (Data) async -> String {
        if name == "rules" {
            let target = RulesFuzzTarget()
            return { "\(target.run($0))" }
        }
        if name == "requests" {
            let target = RequestsFuzzTarget()
            return { "\(target.run($0))" }
        }
        if name == "uploads" {
            let target = UploadsFuzzTarget()
            return { "\(target.run($0))" }
        }
        let target = intakeTarget()
        return { "\(await target.run($0))" }
    }

    /// Apple's test chain, from the repository's fixtures (or `VERDICT_FUZZ_FIXTURES`).
    static var fixturesDirectory: URL {
        if let path = ProcessInfo.processInfo.environment["VERDICT_FUZZ_FIXTURES"] { return URL(fileURLWithPath: path) }
        return FuzzCorpus.repository.appendingPathComponent("Tests/AppStoreServerTests/Fixtures")
    }

    /// The intake target, or exit with a message when its fixtures cannot be read.
    static func intakeTarget() -> IntakeFuzzTarget {
        do {
            return try IntakeFuzzTarget(chain: .init(directory: fixturesDirectory))
        } catch {
            FileHandle.standardError.write(Data("verdict-fuzz: cannot read the test chain in \(fixturesDirectory.path): \(error)\n".utf8))
            exit(2)
        }
    }
}

#if VERDICT_FUZZING
/// The target under fuzzing, made on first use (`VERDICT_FUZZ_TARGET`, default `intake`).
private let fuzzedName: String = {
    let name = ProcessInfo.processInfo.environment["VERDICT_FUZZ_TARGET"] ?? "intake"
    guard FuzzEntry.targetNames.contains(name) else {
        FileHandle.standardError.write(Data("verdict-fuzz: unknown target \(name) (targets: \(FuzzEntry.targetNames))\n".utf8))
        exit(2)
    }
    return name
}()
private let intakeTarget = FuzzEntry.intakeTarget()
private let rulesTarget = RulesFuzzTarget()
private let requestsTarget = RequestsFuzzTarget()
private let uploadsTarget = UploadsFuzzTarget()

/// libFuzzer's callback: one input, never kept. (The runtime's own `main` may be the one linked;
/// it calls this.)
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    switch fuzzedName {
    case "rules": _ = rulesTarget.run(input)
    case "requests": _ = requestsTarget.run(input)
    case "uploads": _ = uploadsTarget.run(input)
    default: intakeTarget.runBlocking(input)
    }
    return 0
}

/// libFuzzer's driver (in the runtime `-sanitize=fuzzer` links); it parses libFuzzer's flags.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#endif

@main
struct FuzzCommand {
    static func main() async {
        #if VERDICT_FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, fuzzOneInput))
        #else
        await replay(Array(CommandLine.arguments.dropFirst()))
        #endif
    }
    /// `verdict-fuzz TARGET FILE…`: runs each file once through the target and prints the outcome.
    static func replay(_ arguments: [String]) async {
        guard let name = arguments.first, FuzzEntry.targetNames.contains(name), arguments.count > 1 else {
            print("usage: verdict-fuzz TARGET FILE… (targets: \(FuzzEntry.targetNames.joined(separator: ", ")))")
            exit(2)
        }
        let run = FuzzEntry.runner(name)
        for path in arguments.dropFirst() {
            guard let input = FileManager.default.contents(atPath: path) else {
                print("\(path): unreadable")
                exit(1)
            }
            print("\(path): \(await run(input))")
        }
    }
}
