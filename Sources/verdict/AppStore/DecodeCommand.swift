import AppStoreServer
import AppStoreServerHTTP
import ArgumentParser
import Foundation

/// `verdict appstore decode`: verifies a JWS Apple signed and prints it as JSON, nested JWS decoded in place.
struct DecodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Verify a signed notification, transaction, renewal info or app transaction and print it as JSON.",
        discussion: """
            Exit status 0 when the JWS verifies; otherwise the error code and message go to stderr and \
            the exit status is 1. Nested signedTransactionInfo, signedRenewalInfo and \
            signedAppTransactionInfo are verified the same way and printed decoded, in place.
            """
    )

    @Argument(help: "The compact JWS, or - (the default) to read it from standard input.")
    var jws: String = "-"

    @Option(name: .customLong("root"), parsing: .upToNextOption,
            help: "Trusted root certificate files (DER or PEM). Default: Apple Root CA - G3.")
    var roots: [String] = []

    @Option(help: "The app's bundle identifier.")
    var bundleId: String

    @Option(help: "The app's Apple ID; required to accept Production payloads.")
    var appAppleId: Int64?

    @Option(name: .customLong("environment"), parsing: .upToNextOption,
            help: "Accepted environments (Production, Sandbox). Default: Sandbox, plus Production when --app-apple-id is given.")
    var environments: [String] = []

    @Flag(help: "Check revocation with OCSP and validate at the current time instead of the payload's signedDate.")
    var online = false

    func run() async throws {
        let text = try readJWS()
        let verifier = try makeVerifier()
        do {
            let document = try await SignedDataDocument.decode(text, with: verifier)
            FileHandle.standardOutput.write(document)
            FileHandle.standardOutput.write(Data("\n".utf8))
        } catch let error as VerificationError {
            FileHandle.standardError.write(Data("\(error.code): \(error.message)\n".utf8))
            throw ExitCode(1)
        }
    }

    private func readJWS() throws -> String {
        let raw: String
        if jws == "-" {
            raw = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        } else {
            raw = jws
        }
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw ValidationError("No JWS given (argument or standard input).") }
        return trimmed
    }

    private func makeVerifier() throws -> SignedDataVerifier {
        let rootData: [Data]
        if roots.isEmpty {
            rootData = [AppleRootCertificates.appleRootCAG3]
        } else {
            rootData = try roots.map { path in
                guard let bytes = FileManager.default.contents(atPath: path) else {
                    throw ValidationError("Cannot read root certificate file \(path).")
                }
                return try RootCertificateLoader.derCertificates(from: bytes)
            }.flatMap { $0 }
        }
        var accepted = Set(environments.map { AppStoreEnvironment(rawValue: $0) })
        if accepted.isEmpty {
            accepted = appAppleId == nil ? [.sandbox] : [.sandbox, .production]
        }
        if let unknown = accepted.first(where: { !$0.isKnown }) {
            throw ValidationError("Unknown environment \(unknown); use Production or Sandbox.")
        }
        return try SignedDataVerifier(
            rootCertificates: rootData,
            bundleId: bundleId,
            appAppleId: appAppleId,
            environments: accepted,
            onlineChecks: online,
            ocspRequester: online ? AsyncHTTPClientOCSPRequester() : nil
        )
    }
}
