import ArgumentParser
import Foundation
import VerdictService

extension ConfigurationError {
    /// Prints the error's one line on standard error (`verdict: configuration error: VERDICT_… …`)
    /// and returns the exit status every command stopped by a bad setting ends with: 78
    /// (`EX_CONFIG`). The one way a configuration failure leaves the CLI.
    func exitCode(command: String = "verdict") -> ExitCode {
        FileHandle.standardError.write(Data("\(command): \(description)\n".utf8))
        return ExitCode(Self.exitStatus)
    }
}
